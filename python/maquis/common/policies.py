"""A user's policy as the rating verbs (`maquis <game> rate`, `--sprt`, `exploit`'s evaluation)
play it: one checked batch function `actions = act(obs, masks)` over a vector env's rows.

What counts as a policy (`as_actor`):

- a saved `.npz` policy (`maquis-mlp-v1`, what the training examples export), loaded with the
  game's spaces checked;
- `"module:attribute"`: the attribute imported (a class is instantiated with no arguments), then
  taken as below;
- a `torch.nn.Module` whose forward maps a float32 batch of observations (n, obs) to logits
  (n, actions): wrapped in `TorchPolicy` (masked argmax; `deterministic=False` samples);
- an object with `act_batch(obs, masks)` (one action per row), or `act(obs, mask)` (one row);
- a plain callable `f(obs, mask) -> action` (`f.batched = True`: `f(obs, masks) -> actions`).

Every batch of actions is checked: one integer per row, in range, legal under the mask; anything
else is a `PolicyError` (a ValueError) naming the policy and the offending row.
"""

from __future__ import annotations

import importlib
import os
import zipfile
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["PolicyError", "TorchPolicy", "as_actor", "load_policy_file", "policy_name"]


class PolicyError(ValueError):
    """A policy that cannot be played: a file that is not one, an import that fails, a wrong
    output shape, an out-of-range or illegal action. The message names the policy."""


class TorchPolicy:
    """A torch module as a policy: `module(x)` on a float32 tensor (n, obs) on `device` must give
    logits (n, num_actions); illegal actions are masked out, then the argmax is played
    (`deterministic=True`, the default) or an action sampled from the softmax (seeded `seed`).

    >>> # policy = TorchPolicy(my_module, device="cuda")  # then maquis dday rate --policy mod:policy
    """

    def __init__(self, module: Any, device: str = "cpu", deterministic: bool = True, seed: int = 0,
                 name: str | None = None) -> None:
        import torch

        self.module = module.to(device) if hasattr(module, "to") else module
        if hasattr(self.module, "eval"):
            self.module.eval()
        self.device = torch.device(device)
        self.deterministic = deterministic
        self._gen = torch.Generator(device=self.device)
        self._gen.manual_seed(int(seed))
        self.name = name or type(module).__name__

    def act_batch(self, obs: Any, masks: Any) -> np.ndarray:
        import torch

        masks = np.asarray(masks).astype(bool)
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(obs, dtype=np.float32), device=self.device)
            logits = self.module(x)
            if isinstance(logits, (tuple, list)):  # (logits, value) heads: the first
                logits = logits[0]
            if not isinstance(logits, torch.Tensor) or tuple(logits.shape) != masks.shape:
                shape = tuple(logits.shape) if isinstance(logits, torch.Tensor) else type(logits).__name__
                raise PolicyError(f"torch policy {self.name}: forward gave {shape}, expected logits of shape "
                                  f"{masks.shape} (batch, number of actions)")
            m = torch.as_tensor(masks, device=self.device)
            logits = torch.where(m, logits.float(), torch.full_like(logits, -torch.inf, dtype=torch.float32))
            if self.deterministic:
                a = logits.argmax(-1)
            else:
                a = torch.multinomial(torch.softmax(logits, -1), 1, generator=self._gen).squeeze(-1)
        return a.cpu().numpy().astype(np.int64)

    def act(self, obs: Any, mask: Any) -> int:
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])


def load_policy_file(path: str | os.PathLike[str], game: str, seed: int = 0) -> Any:
    """The `.npz` policy at `path` for `game`; a PolicyError naming the file when it is missing,
    malformed or made for another game's spaces."""
    from .. import policy as mlp

    spaces = _spaces(game)
    try:
        p = mlp.load_policy(path, None, seed, spaces=spaces)
    except (ValueError, OSError, KeyError, EOFError, zipfile.BadZipFile, TypeError) as e:
        if isinstance(e, ValueError) and str(path) in str(e):
            raise PolicyError(str(e)) from e
        raise PolicyError(f"{path}: not a maquis-mlp-v1 policy file ({type(e).__name__}: {e})") from e
    return p


def _spaces(game: str) -> tuple[int, int]:
    from .. import _core

    if game == "maquis":
        return int(_core.maquis.OBS_SIZE), int(_core.maquis.NUM_ACTIONS)
    t = getattr(_core, game)
    return int(t.OBSERVATION_SIZE), int(t.NUM_ACTIONS)


def _import(spec: str) -> Any:
    mod_name, _, attr = spec.partition(":")
    try:
        obj: Any = importlib.import_module(mod_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as e:
        raise PolicyError(f"policy {spec!r}: cannot import it ({type(e).__name__}: {e})") from e
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as e:  # noqa: BLE001 - any failure of the user's constructor
            raise PolicyError(f"policy {spec!r}: the class could not be built with no arguments ({e})") from e
    return obj


def resolve(policy: Any, game: str, seed: int = 0, device: str = "cpu") -> Any:
    """The policy object of `policy` (a path, "module:attribute", a torch module, an object)."""
    if isinstance(policy, (str, os.PathLike)):
        text = os.fspath(policy)
        if text.endswith(".npz") or os.path.exists(text):
            return load_policy_file(text, game, seed)
        if ":" in text:
            obj = _import(text)
            if not hasattr(obj, "name"):
                try:
                    obj.name = text
                except (AttributeError, TypeError):
                    pass
            policy = obj
        else:
            raise PolicyError(f"policy {text!r}: no such file, and not module:attribute")
    try:
        import torch

        if isinstance(policy, torch.nn.Module):
            return TorchPolicy(policy, device=device, seed=seed)
    except ImportError:
        pass
    return policy


def policy_name(policy: Any, spec: Any = None) -> str:
    if isinstance(spec, (str, os.PathLike)):
        return os.fspath(spec)
    return str(getattr(policy, "name", None) or getattr(policy, "__name__", None) or type(policy).__name__)


def as_actor(policy: Any, game: str, seed: int = 0, device: str = "cpu") -> tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    """(name, act) where `act(obs, masks)` gives one checked int64 action per row (see the module)."""
    obj = resolve(policy, game, seed, device)
    name = policy_name(obj, policy)
    n_actions = _spaces(game)[1]
    if hasattr(obj, "act_batch"):
        raw = obj.act_batch
    else:
        fn = obj.act if hasattr(obj, "act") else obj
        if not callable(fn):
            raise PolicyError(f"policy {name}: expected a policy file, module:attribute, a torch module, or an object "
                              f"with act(obs, mask) / act_batch(obs, masks), got {type(obj).__name__}")
        if getattr(obj, "batched", False) or getattr(fn, "batched", False):
            raw = fn
        else:
            def raw(obs: np.ndarray, masks: np.ndarray) -> Any:
                return [fn(o, m) for o, m in zip(obs, masks)]

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        try:
            out = raw(obs, masks)
        except PolicyError:
            raise
        except Exception as e:  # noqa: BLE001 - the user's code: named, with its error
            raise PolicyError(f"policy {name}: raised {type(e).__name__}: {e}") from e
        try:
            a = np.asarray(out)
        except Exception as e:  # noqa: BLE001
            raise PolicyError(f"policy {name}: its actions are not an array ({e})") from e
        n = len(masks)
        if a.shape == (n, 1):
            a = a[:, 0]
        if a.shape != (n,):
            raise PolicyError(f"policy {name}: gave actions of shape {a.shape} for {n} observations, expected ({n},)")
        if a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
                a = a.astype(np.int64)
            else:
                raise PolicyError(f"policy {name}: actions must be integers, got dtype {a.dtype}")
        a = a.astype(np.int64)
        bad = np.flatnonzero((a < 0) | (a >= n_actions))
        if len(bad):
            raise PolicyError(f"policy {name}: action {int(a[bad[0]])} out of range 0..{n_actions - 1} (row {bad[0]})")
        legal = np.asarray(masks).astype(bool)[np.arange(n), a]
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise PolicyError(f"policy {name}: action {int(a[i])} is illegal under the mask (row {i})")
        return a

    return name, act

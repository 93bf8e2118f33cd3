"""The learner's rollout loop on a device (CPU or CUDA), shared by `maquis bench --train` and the
training examples (`maquis.train.ppo`).

- `ObservationDecoder`: uint8 observation rows to the network's float32 input, on the device,
  equal bit for bit to the rows the env writes with `observation_dtype="float32"` (the game's
  `OBSERVATION_DIVISOR`; a divisor of 0 marks a share whose denominator is the value itself).
- `Staging`: one batch's way to the device. On CUDA the env's own rows (`copy=False`: the same
  memory every step) are page-locked once (`cudaHostRegister`) and copied to the device with
  non-blocking copies straight from there; rows that move between steps go through pinned
  buffers of the staging's own. The actions come back through pinned memory. On the CPU the
  env's own arrays are used as they are.
- `masked_sample`: one action per row from the masked logits, for the whole batch at once
  (Gumbel-max; illegal actions at -inf are never drawn).
- `VectorHalves`: the environments as several vector envs (two, to overlap) stepped in turn
  through `send` / `recv`: Rust's workers step one half while the network acts on the other, so
  the loop waits on the environment only when a half's step outlasts the other half's forward.
  With one half (nothing to overlap), or envs without `send` / `recv`, a half is stepped with `step`.
- `CapturedCall`: a forward pass and its sampling as one CUDA graph, replayed each step.
- `RolloutTimers`: where the loop's time goes: waiting on the env (in `recv`), staging, launching
  the forward and the sampling, waiting on the device for the actions; on CUDA also the device's
  own time of each stage (CUDA events, read once per rollout).

This module imports torch: import it only where torch is installed.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

#: The host timers, in the order they are reported.
HOST_TIMERS = ("env_wait", "stage", "forward", "sample", "device_wait", "store")
#: The device timers (CUDA events), milliseconds summed over the rollouts.
DEVICE_TIMERS = ("h2d", "forward", "sample", "d2h")


def resolve_device(name: str | torch.device) -> torch.device:
    """`name` ("cpu", "cuda", "cuda:N", or "auto": CUDA where torch sees it) as a torch device;
    ValueError naming the problem when CUDA is asked for and torch has none."""
    if isinstance(name, str) and name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except (RuntimeError, TypeError) as e:
        raise ValueError(f"device must be 'cpu', 'cuda', 'cuda:N' or 'auto', got {name!r} ({e})") from None
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(
                f"device {name!r}: torch sees no CUDA device (torch.cuda.is_available() is False); use 'cpu'"
            )
        if device.index is not None and device.index >= torch.cuda.device_count():
            raise ValueError(f"device {name!r}: torch sees {torch.cuda.device_count()} CUDA device(s)")
    elif device.type != "cpu":
        raise ValueError(f"device must be 'cpu', 'cuda', 'cuda:N' or 'auto', got {name!r}")
    return device


def observation_dtype_for(device: torch.device, requested: str = "auto") -> str:
    """The env's observation dtype: "auto" is uint8 on CUDA (a quarter of the bytes to copy) and
    float32 on the CPU (no conversion at all)."""
    if requested == "auto":
        return "uint8" if device.type == "cuda" else "float32"
    if requested not in ("float32", "uint8"):
        raise ValueError(f'observation dtype must be "auto", "float32" or "uint8", got {requested!r}')
    return requested


def _divisor_parts(divisor: Any) -> tuple[np.ndarray, np.ndarray]:
    d = np.asarray(divisor)
    if d.ndim != 1 or d.dtype.kind not in "ui":
        raise ValueError(f"the observation divisor must be a 1-D integer array, got {d.dtype} of shape {d.shape}")
    shares = np.flatnonzero(d == 0)
    if len(shares) and shares[-1] + 1 >= len(d):
        raise ValueError("a divisor of 0 (a share) must be followed by the count it divides")
    return np.where(d > 0, d, 1).astype(np.float32), shares


def host_float32(obs: np.ndarray, divisor: Any) -> np.ndarray:
    """uint8 observations as the float32 rows of the same game, with numpy (float32 rows are
    returned as they are)."""
    obs = np.asarray(obs)
    if obs.dtype == np.float32:
        return obs
    scale, shares = _divisor_parts(divisor)
    out = obs.astype(np.float32)
    out /= scale
    if len(shares):
        boxes = obs[..., shares].astype(np.float32)
        out[..., shares] = obs[..., shares + 1].astype(np.float32) / np.where(boxes > 0, boxes, 1)
    return out


class ObservationDecoder:
    """uint8 observation rows (a tensor on `device`) as float32 network input, made on the device;
    float32 rows pass through. `divisor`: the game's `OBSERVATION_DIVISOR`."""

    def __init__(self, divisor: Any, device: torch.device):
        scale, shares = _divisor_parts(divisor)
        self.size = len(scale)
        self.scale = torch.as_tensor(scale, device=device)
        self.shares = torch.as_tensor(shares, dtype=torch.long, device=device) if len(shares) else None

    def __call__(self, obs: torch.Tensor) -> torch.Tensor:
        if obs.dtype == torch.float32:
            return obs
        if obs.shape[-1] != self.size:
            raise ValueError(
                f"observations must have {self.size} values in their last axis, got shape {tuple(obs.shape)}"
            )
        x = obs.float() / self.scale
        if self.shares is not None:
            boxes = obs[..., self.shares].float().clamp_(min=1.0)
            x[..., self.shares] = obs[..., self.shares + 1].float() / boxes
        return x


def masked_sample(logits: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(actions, their log-probabilities) for a batch of logits, illegal actions excluded: the
    Gumbel-max draw over the legal logits, on the logits' device, no loop over the rows. Every row
    of `mask` must allow an action (a vector env's rows do: one awaiting its autoreset allows every
    action)."""
    logp = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
    # Uniforms kept inside (0, 1): the noise stays finite, so an illegal action (-inf) never wins.
    u = torch.rand_like(logp).clamp_(1e-20, 1.0 - 1e-7)
    action = (logp - torch.log(-torch.log(u))).argmax(dim=-1)
    return action, logp.gather(-1, action.unsqueeze(-1)).squeeze(-1)


#: Page-locked ranges of env rows (address: first page, end page), over all stagings.
_LOCKED_PAGES: dict[int, tuple[int, int]] = {}
_PAGE = 4096
#: Rows smaller than this are copied into the pinned buffers rather than locked in place.
_LOCK_MIN_BYTES = 1 << 16


class Staging:
    """One batch of `n` rows between the host and `device`.

    `upload(obs, masks)` returns the rows as tensors on the device. On CUDA, an array met at the
    same address on two uploads in a row (a `copy=False` env's own rows) is page-locked in place
    and copied from there with `non_blocking=True`; any other array is first copied into pinned
    buffers of the staging's own. Either way the host rows must stay unchanged until the actions
    of this upload came back (`download`), which the stream orders after the copies: the env
    steps only after that. On the CPU the arrays themselves are used, not copied (they must not
    be written to). `download(actions)` returns the actions as a numpy array the env may read
    until the next `download`. `close()` (or garbage collection) unlocks the env's pages."""

    def __init__(self, n: int, obs_size: int, n_actions: int, obs_dtype: str, device: torch.device):
        self.device = device
        self.cuda = device.type == "cuda"
        self._locked: dict[str, tuple[int, np.ndarray, torch.Tensor]] = {}
        self._seen: dict[str, tuple[int, np.ndarray]] = {}
        t_obs = torch.uint8 if obs_dtype == "uint8" else torch.float32
        if self.cuda:
            self.obs_host = torch.empty((n, obs_size), dtype=t_obs, pin_memory=True)
            self.mask_host = torch.empty((n, n_actions), dtype=torch.bool, pin_memory=True)
            self.act_host = torch.empty((n,), dtype=torch.int64, pin_memory=True)
            self._obs_np = self.obs_host.numpy()
            self._mask_np = self.mask_host.numpy().view(np.int8)  # the env's masks are int8 0/1 bytes
            self._act_np = self.act_host.numpy()
            self.obs = torch.empty((n, obs_size), dtype=t_obs, device=device)
            self.mask = torch.empty((n, n_actions), dtype=torch.bool, device=device)
            self._back = torch.cuda.Event()

    def upload(
        self, obs: np.ndarray, masks: np.ndarray, timers: RolloutTimers | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """`timers`: its `h2d` span gets the device time of the copies (CUDA)."""
        masks = np.asarray(masks)
        if not self.cuda:
            with warnings.catch_warnings():
                # The env's arrays are read-only to numpy; they are only read here too.
                warnings.simplefilter("ignore", UserWarning)
                m = torch.from_numpy(masks)
                o = torch.from_numpy(np.asarray(obs))
            return o, (m if m.dtype == torch.bool else m.view(torch.bool))
        masks_i8 = masks.view(np.int8) if masks.dtype == np.bool_ else masks
        obs_src = self._source("obs", np.asarray(obs), self.obs_host, self._obs_np)
        mask_src = self._source("mask", masks_i8, self.mask_host, self._mask_np)
        begin = timers.event() if timers is not None else None
        self.obs.copy_(obs_src, non_blocking=True)
        self.mask.copy_(mask_src if mask_src.dtype == torch.bool else mask_src.view(torch.bool), non_blocking=True)
        if timers is not None:
            timers.span("h2d", begin, timers.event())
        return self.obs, self.mask

    @property
    def locked(self) -> tuple[str, ...]:
        """Which of the env's arrays ("obs", "mask") are copied from their own, page-locked memory."""
        return tuple(self._locked)

    def _source(self, role: str, arr: np.ndarray, pinned: torch.Tensor, pinned_np: np.ndarray) -> torch.Tensor:
        """Where `arr` is copied to the device from: its own memory once it is locked, else the
        staging's pinned buffer (filled here)."""
        ptr = arr.__array_interface__["data"][0] if arr.flags.c_contiguous else 0
        held = self._locked.get(role)
        if held is not None:
            if held[0] == ptr and arr.shape == held[1].shape and arr.dtype == held[1].dtype:
                return held[2]
            self._unlock(role)
        seen, self._seen[role] = self._seen.get(role), (ptr, arr)  # held: the address stays this array's
        # Locked only as the pinned buffer's own layout: anything else is cast or refused by the copy below.
        same_layout = arr.shape == pinned_np.shape and arr.dtype == pinned_np.dtype
        if ptr and same_layout and seen is not None and seen[0] == ptr and seen[1].shape == arr.shape:
            src = self._lock(role, ptr, arr)
            if src is not None:
                return src
        np.copyto(pinned_np, arr, casting="same_kind" if role == "obs" else "no")
        return pinned

    def _lock(self, role: str, ptr: int, arr: np.ndarray) -> torch.Tensor | None:
        # Small rows gain nothing; pages locked already (another staging's rows on the same page)
        # cannot be locked twice. Those go through the pinned buffer, one copy more.
        pages = (ptr // _PAGE, -(-(ptr + arr.nbytes) // _PAGE))
        if arr.nbytes < _LOCK_MIN_BYTES or any(a < pages[1] and pages[0] < b for a, b in _LOCKED_PAGES.values()):
            return None
        if int(torch.cuda.cudart().cudaHostRegister(ptr, arr.nbytes, 0)) != 0:
            try:  # the failed call left CUDA's last error set: a launch's check reads and clears it
                torch.zeros(1, device=self.device)
            except RuntimeError:
                pass
            return None
        _LOCKED_PAGES[ptr] = pages
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # read-only to numpy; only read here
            tensor = torch.from_numpy(arr)
        self._locked[role] = (ptr, arr, tensor)
        return tensor

    def _unlock(self, role: str) -> None:
        ptr, _, _ = self._locked.pop(role)
        torch.cuda.current_stream().synchronize()  # no copy from those pages may be in flight
        torch.cuda.cudart().cudaHostUnregister(ptr)
        _LOCKED_PAGES.pop(ptr, None)

    def close(self) -> None:
        """Unlocks the env's pages (idempotent)."""
        for role in list(getattr(self, "_locked", ())):
            self._unlock(role)
        self._seen = {}

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass  # interpreter shutdown: the driver unlocks with the process

    def download(self, actions: torch.Tensor) -> np.ndarray:
        if not self.cuda:
            return actions.numpy()
        self.act_host.copy_(actions, non_blocking=True)
        self._back.record()
        self._back.synchronize()
        return self._act_np


class CapturedCall:
    """`fn()` recorded once as a CUDA graph, then replayed: one launch instead of the dozens of
    small kernels of a forward pass and a sampling, whose launches from Python take longer than
    the kernels on a batch of a few thousand rows. `fn` reads only tensors that stay where they
    are (the staging's device rows, parameters updated in place), does not wait for the device,
    and returns tensors; each call returns those same tensors, rewritten: copy them before the
    next call."""

    def __init__(self, fn: Callable[[], Any]):
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up off the capture: lazy initialisations happen here
            for _ in range(2):
                fn()
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.out = fn()

    def __call__(self) -> Any:
        self.graph.replay()
        return self.out


#: The vector envs' `worker_spin` while a learner on a GPU runs between their steps: longer than
#: a step of the learner's loop at 4096 envs, so that the env's threads, idle meanwhile, do not
#: fall asleep between steps (docs/performance.md, "The learner's loop on the GPU").
GPU_WORKER_SPIN = 0.002


#: From this many environments a learner on CUDA collects faster from two halves stepped in turn
#: than from one vector env (15.4 M env steps/s against 13.1–14.2 M at 16384 on the H200 machine;
#: at 4096 one vector env is faster: docs/performance.md).
HALVES_FROM = 16384


def default_halves(device: Any, num_envs: int) -> int:
    """2 with the learner on CUDA and at least `HALVES_FROM` environments, else 1."""
    return 2 if torch.device(device).type == "cuda" and num_envs >= HALVES_FROM else 1


def default_worker_spin(device: Any) -> float | None:
    """`GPU_WORKER_SPIN` with the learner on CUDA, else None (the env's own, which leaves the
    cores to a learner on the CPU soon after each step)."""
    return GPU_WORKER_SPIN if torch.device(device).type == "cuda" else None


class VectorHalves:
    """`num_envs` environments as `halves` vector envs (`make_env(n)` builds one of `n`), stepped in
    turn: `send(h, actions)` starts half `h`'s step, `recv(h)` returns it (through the env's own
    `send`/`recv` where it has them and there are several halves, else `step` at `send`).

    `reset(seed)` gives environment `i` of the whole (half by half) the seed
    `sub_env_seed(seed, i)`: the environments are those of one vector env of `num_envs` reset with
    `seed`, however the batch is split.

    `share_threads`: the halves step on the first half's threads (`share_threads` of maquis's
    vector envs, where every half has at least that many environments): one half's step takes
    every thread, and the next half's send queues behind it, so that the threads never wait for
    the network while a half is sent. `worker_spin`: the envs' `worker_spin` (None: theirs)."""

    def __init__(
        self, make_env: Callable[[int], Any], num_envs: int, halves: int = 2, share_threads: bool = True,
        worker_spin: float | None = None,
    ):
        if not isinstance(halves, int) or halves < 1:
            raise ValueError(f"halves must be a positive int, got {halves!r}")
        if num_envs < halves:
            raise ValueError(f"num_envs ({num_envs}) must be at least the number of halves ({halves})")
        sizes = split_sizes(num_envs, halves)
        starts = np.cumsum([0, *sizes])
        self.num_envs = num_envs
        self.slices = [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]
        self.envs = [make_env(n) for n in sizes]
        # One half has nothing to overlap with: `step` spares the hand-over to the env's driver thread.
        self.asynchronous = halves > 1 and all(
            callable(getattr(e, "send", None)) and callable(getattr(e, "recv", None)) for e in self.envs
        )
        first = self.envs[0]
        self.shared_threads = (
            self.asynchronous
            and share_threads
            and all(callable(getattr(e, "share_threads", None)) for e in self.envs)
            and all(e.num_envs >= first.num_threads for e in self.envs)
        )
        if self.shared_threads:
            for env in self.envs[1:]:
                env.share_threads(first)
        if worker_spin is not None:
            for env in self.envs:
                env.worker_spin = worker_spin
        self._results: list[Any] = [None] * halves

    @classmethod
    def wrap(cls, env: Any) -> VectorHalves:
        """One vector env already built, as a single half."""
        self = cls.__new__(cls)
        self.num_envs = int(env.num_envs)
        self.slices = [slice(0, self.num_envs)]
        self.envs = [env]
        self.asynchronous = False  # one half: nothing to overlap with
        self.shared_threads = False
        self._results = [None]
        return self

    def __len__(self) -> int:
        return len(self.envs)

    def reset(self, seed: int | None = None) -> list[tuple[np.ndarray, dict[str, Any]]]:
        if len(self.envs) == 1 or seed is None:
            return [env.reset(seed=seed) for env in self.envs]
        from ..common.seeding import sub_env_seeds

        seeds = sub_env_seeds(seed, self.num_envs)
        return [env.reset(seed=seeds[sl]) for env, sl in zip(self.envs, self.slices)]

    def send(self, h: int, actions: np.ndarray) -> None:
        if self.asynchronous:
            self.envs[h].send(actions)
        else:
            self._results[h] = self.envs[h].step(actions)

    def recv(self, h: int) -> tuple[Any, ...]:
        if self.asynchronous:
            return self.envs[h].recv()
        out, self._results[h] = self._results[h], None
        return out

    def close(self) -> None:
        for env in self.envs:
            env.close()


class RolloutTimers:
    """Seconds of the loop's main thread per stage (`HOST_TIMERS`), and on CUDA the device's time
    per stage (`DEVICE_TIMERS`): the time between CUDA events recorded in the stream before and
    after the stage's work (so the gaps where the device waited for the host to launch that work
    are included), summed at `flush`."""

    def __init__(self, device: torch.device):
        self.cuda = device.type == "cuda"
        self.host = dict.fromkeys(HOST_TIMERS, 0.0)
        self.device_ms = dict.fromkeys(DEVICE_TIMERS, 0.0)
        self._marks: list[tuple[str, Any, Any]] = []
        self._pool: list[Any] = []
        self._t = time.perf_counter()

    def start(self) -> None:
        """Starts the host clock of the next stage."""
        self._t = time.perf_counter()

    def lap(self, name: str) -> None:
        """The host time since the last `start`/`lap` goes to `name`."""
        now = time.perf_counter()
        self.host[name] += now - self._t
        self._t = now

    def event(self) -> Any:
        """A CUDA event recorded on the current stream now (None on the CPU)."""
        if not self.cuda:
            return None
        ev = self._pool.pop() if self._pool else torch.cuda.Event(enable_timing=True)
        ev.record()
        return ev

    def span(self, name: str, begin: Any, end: Any) -> None:
        """The device time between two events goes to `name` (read at `flush`)."""
        if begin is not None:
            self._marks.append((name, begin, end))

    def flush(self) -> None:
        """Waits for the device and adds up the spans recorded since the last flush."""
        if not self._marks:
            return
        torch.cuda.synchronize()
        events = {}
        for name, begin, end in self._marks:
            self.device_ms[name] += begin.elapsed_time(end)
            events[id(begin)], events[id(end)] = begin, end
        self._pool.extend(events.values())
        self._marks.clear()

    def reset(self) -> None:
        self.flush()
        self.host = dict.fromkeys(HOST_TIMERS, 0.0)
        self.device_ms = dict.fromkeys(DEVICE_TIMERS, 0.0)

    def summary(self, elapsed: float, steps: int) -> dict[str, Any]:
        """The shares of `elapsed` per host stage (and the rest as `other`), and the device's
        microseconds per env step (all halves together) per stage."""
        self.flush()
        out: dict[str, Any] = {f"{k}_share": v / elapsed for k, v in self.host.items()}
        out["other_share"] = max(0.0, 1.0 - sum(self.host.values()) / elapsed)
        if self.cuda:
            out["device_us_per_step"] = {k: 1e3 * v / max(steps, 1) for k, v in self.device_ms.items()}
        return out


def run_pipeline(
    halves: VectorHalves,
    steps: int,
    act: Callable[[int, int], np.ndarray],
    on_result: Callable[[int, int, tuple[Any, ...]], None],
    timers: RolloutTimers,
) -> None:
    """`steps` steps of every half, the halves in turn: at step `t`, for each half `h`, the result of
    its previous step is received (`on_result(h, t - 1, result)`: store it, stage the next
    observations), then `act(h, t)` gives its actions and they are sent. Half `h` steps in Rust
    while the other halves are acted on. All halves are received before returning.

    The host time between two `timers.lap` calls goes to the stage named by the second: the time
    in `recv` and `send` is `env_wait`; `act` and `on_result` lap their own stages. The caller
    calls `timers.start()` before."""
    k = len(halves)
    pending = [False] * k
    for t in range(steps):
        for h in range(k):
            if pending[h]:
                result = halves.recv(h)
                timers.lap("env_wait")
                on_result(h, t - 1, result)
            actions = act(h, t)
            halves.send(h, actions)  # the whole step where the env has no `send`
            timers.lap("env_wait")
            pending[h] = True
    for h in range(k):
        if pending[h]:
            result = halves.recv(h)
            timers.lap("env_wait")
            on_result(h, steps - 1, result)


def split_sizes(num_envs: int, halves: int) -> Sequence[int]:
    """The sizes `VectorHalves` gives its halves."""
    return [num_envs // halves + (1 if h < num_envs % halves else 0) for h in range(halves)]

"""The network in torch (training only) and its `maquis-net-v1`/`-v2` weight file.

`PolicyValueNet(hidden, inputs, obs_size, num_actions, planes)` holds exactly the tensors of the
file (see `maquis.common.network_file`): `trunk.{i}` linear layers with ReLU, a `policy` head of
`num_actions` logits and a `value` head whose sigmoid is the expected outcome value (win 1, draw
0.5, loss 0); with `planes` > 0 (a game's extra input planes, e.g. Maquis's heuristic ranking) the
trunk also reads `planes` rows of `num_actions` values and `prior.weight` adds each plane to the
logits; with `maps` (the layout of map planes in the row, `maquis.train.model.MapStem`) the
row's planes go through 2-d convolutions first and the trunk reads their output in their place.
`save_network` writes the file with the metadata the game's loader checks;
`load_network_into` reads one back into a model. No game is named here: each game's trainer gives
its sizes and metadata.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from maquis.common.network_file import NETWORK_FORMAT_V2, read_network_file, write_weights

# The planes' weights in the logits at the start: the heuristic's first choice well ahead, its
# next ones behind in order, larger score gaps further behind.
PRIOR_INIT = (3.0, 1.0, 0.5, 0.25, -1.0)


class PlaneWeights(nn.Module):
    """`prior.weight`: one weight per heuristic plane, added to the logits."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.tensor(PRIOR_INIT, dtype=torch.float32))


class MapStem(nn.ModuleList):
    """Convolutions with ReLU over the map planes of an input row (the Rust `nn::maps`): `spec`
    is the file's `maps` metadata (`at`: where the planes start in the row, `planes`: `[C, H, W]`,
    `strides`, `padding`: per layer), `channels` and `kernels` each layer's output channels and
    square kernel. The list of its `nn.Conv2d` layers, so that a network's tensors are named
    `maps.{i}.weight` as in the file. `features(rows)` returns the trunk's input: the row's other
    values with the stem's output, flattened `(H, W, C)`, in the planes' place."""

    def __init__(self, spec: dict[str, Any], channels: tuple[int, ...], kernels: tuple[int, ...]) -> None:
        super().__init__()
        if not (len(channels) == len(kernels) == len(spec["strides"]) == len(spec["padding"]) > 0):
            raise ValueError(f"a map stem needs one channel count, kernel, stride and padding per layer, got "
                             f"{channels}, {kernels}, {spec['strides']}, {spec['padding']}")
        self.spec = {"at": int(spec["at"]), "planes": [int(x) for x in spec["planes"]],
                     "strides": [int(x) for x in spec["strides"]], "padding": [int(x) for x in spec["padding"]]}
        c, h, w = self.spec["planes"]
        for out, k, s, p in zip(channels, kernels, self.spec["strides"], self.spec["padding"]):
            self.append(nn.Conv2d(c, out, k, stride=s, padding=p))
            c, h, w = out, (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
            if h < 1 or w < 1:
                raise ValueError(f"map stem layer {len(self) - 1} leaves no output ({h} x {w})")
        self.out_len = c * h * w
        self.planes_len = int(np.prod(self.spec["planes"]))

    def features(self, rows: torch.Tensor) -> torch.Tensor:
        at, n = self.spec["at"], self.planes_len
        x = rows[:, at:at + n].reshape(len(rows), *self.spec["planes"])
        for conv in self:
            x = F.relu(conv(x))
        return torch.cat([rows[:, :at], x.permute(0, 2, 3, 1).flatten(1), rows[:, at + n:]], dim=1)

    def metadata(self) -> str:
        return json.dumps(self.spec, separators=(",", ":"))


class PolicyValueNet(nn.Module):
    """A game's network: its input row's size (`obs_size`, planes excluded) and number of
    actions; `inputs` is the name its weight file records ("observation", or a game's name for
    observation and `planes` extra planes, or for a row whose map planes `maps` reads)."""

    def __init__(self, hidden: tuple[int, ...], inputs: str, obs_size: int, num_actions: int,
                 planes: int = 0, maps: MapStem | None = None) -> None:
        super().__init__()
        if (inputs == "observation") != (planes == 0 and maps is None):
            raise ValueError(f"inputs {inputs!r} with {planes} extra planes and {'a' if maps else 'no'} map stem: "
                             "only 'observation' has neither")
        self.inputs = inputs
        self.obs_size, self.num_actions = obs_size, num_actions
        self.planes = planes
        # Registered before the trunk, so that the file's tensors are in the stem, trunk, heads order.
        self.maps = maps
        row = obs_size + self.planes * num_actions
        widths = [row if maps is None else row - maps.planes_len + maps.out_len, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths[:-1], widths[1:]))
        self.policy = nn.Linear(widths[-1], num_actions)
        self.value = nn.Linear(widths[-1], 1)
        if self.planes:
            self.prior = PlaneWeights()
        self.hidden = tuple(hidden)

    def forward(self, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (n, NUM_ACTIONS) and value logits (n,) (sigmoid: the expected outcome value) of
        input rows: observations, followed by the heuristic planes if the network reads them."""
        x = rows if self.maps is None else self.maps.features(rows)
        for layer in self.trunk:
            x = F.relu(layer(x))
        logits = self.policy(x)
        if self.planes:
            planes = rows[:, self.obs_size:].reshape(len(rows), self.planes, self.num_actions)
            logits = logits + torch.einsum("c,nca->na", self.prior.weight, planes)
        return logits, self.value(x).squeeze(-1)


def graft_map_stem(model: PolicyValueNet, fresh: PolicyValueNet) -> PolicyValueNet:
    """`fresh` (a network with a map stem, of `model`'s hidden widths and actions) holding `model`'s
    weights: `model` reads the row without the map planes, and the trunk's weights from the stem's
    outputs start at zero, so the result computes what `model` does until training moves them (the
    stem's own weights are `fresh`'s). Returns `fresh`; ValueError naming what does not match."""
    stem = fresh.maps
    if stem is None or model.maps is not None:
        raise ValueError("a map stem is grafted from a network with one onto a network without one")
    if model.planes or fresh.planes:
        raise ValueError("a map stem is not grafted onto a network with extra planes")
    if (model.hidden, model.num_actions) != (fresh.hidden, fresh.num_actions):
        raise ValueError(f"the networks differ: hidden {model.hidden} and {fresh.hidden}, "
                         f"{model.num_actions} and {fresh.num_actions} actions")
    at, old = stem.spec["at"], model.trunk[0].in_features
    if old != fresh.trunk[0].in_features - stem.out_len or old < at:
        raise ValueError(f"the network reads {old} values, not the {fresh.trunk[0].in_features - stem.out_len} "
                         "of the row without its map planes")
    with torch.no_grad():
        state = {k: v.clone() for k, v in model.state_dict().items()}
        w = state["trunk.0.weight"]
        state["trunk.0.weight"] = torch.cat([w[:, :at], w.new_zeros(len(w), stem.out_len), w[:, at:]], dim=1)
        state.update({f"maps.{k}": v for k, v in stem.state_dict().items()})
    fresh.load_state_dict(state)
    return fresh


def save_network(model: PolicyValueNet, path: str, info: dict[str, Any] | None, metadata: dict[str, str],
                 dtype: str = "float32") -> None:
    """Writes `model` as a safetensors weight file with the game's `metadata` (its format and
    observation fingerprint; `info` goes to it as JSON; `dtype="float16"` halves the file, see
    `maquis.common.network_file`)."""
    tensors = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    meta = dict(metadata)
    if model.maps is not None:
        meta.update(format=NETWORK_FORMAT_V2, inputs=model.inputs, maps=model.maps.metadata())
    write_weights(path, tensors, {**meta, "training": json.dumps(info or {}, sort_keys=True)}, dtype)


def load_network_into(model: PolicyValueNet, path: str) -> dict[str, str]:
    """Loads a `maquis-net-v1` file into `model` (same hidden widths); returns its metadata."""
    tensors, meta = read_network_file(path)
    model.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in tensors.items()})
    return meta


def model_from_file(path: str) -> PolicyValueNet:
    """A model with the hidden widths, observation size and number of actions of a weight file (any
    game's), loaded from it."""
    tensors, meta = read_network_file(path)
    hidden = []
    while f"trunk.{len(hidden)}.weight" in tensors:
        hidden.append(tensors[f"trunk.{len(hidden)}.weight"].shape[0])
    inputs = meta.get("inputs", "observation")
    num_actions, width = tensors["policy.weight"].shape
    row = tensors["trunk.0.weight"].shape[1] if hidden else width
    planes = tensors["prior.weight"].shape[0] if "prior.weight" in tensors else 0
    maps = None
    if "maps" in meta:
        convs = []
        while f"maps.{len(convs)}.weight" in tensors:
            convs.append(tensors[f"maps.{len(convs)}.weight"].shape)
        maps = MapStem(json.loads(meta["maps"]), tuple(int(c[0]) for c in convs), tuple(int(c[2]) for c in convs))
        row += maps.planes_len - maps.out_len  # the trunk's input holds the stem's output in the planes' place
    model = PolicyValueNet(tuple(hidden), inputs, row - planes * num_actions, num_actions, planes, maps)
    load_network_into(model, path)
    return model


__all__ = ["MapStem", "PolicyValueNet", "graft_map_stem", "save_network", "load_network_into", "model_from_file"]

"""The network in torch (training only) and its `maquis-net-v1`/`-v2` weight file.

`PolicyValueNet(hidden, inputs, obs_size, num_actions, planes)` holds exactly the tensors of the
file (see `maquis.common.network_file`): `trunk.{i}` linear layers with ReLU, a `policy` head of
`num_actions` logits and a `value` head whose sigmoid is the expected outcome value (win 1, draw
0.5, loss 0); with `planes` > 0 (a game's extra input planes, e.g. Maquis's heuristic ranking) the
trunk also reads `planes` rows of `num_actions` values and `prior.weight` adds each plane to the
logits. `save_network` writes the file with the metadata the game's loader checks;
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

from maquis.common.network_file import read_network_file, write_weights

# The planes' weights in the logits at the start: the heuristic's first choice well ahead, its
# next ones behind in order, larger score gaps further behind.
PRIOR_INIT = (3.0, 1.0, 0.5, 0.25, -1.0)


class PlaneWeights(nn.Module):
    """`prior.weight`: one weight per heuristic plane, added to the logits."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.tensor(PRIOR_INIT, dtype=torch.float32))


class PolicyValueNet(nn.Module):
    """A game's network: its observation size and number of actions; `inputs` is the name its
    weight file records ("observation", or a game's name for observation and `planes` extra
    planes)."""

    def __init__(self, hidden: tuple[int, ...], inputs: str, obs_size: int, num_actions: int,
                 planes: int = 0) -> None:
        super().__init__()
        if (inputs == "observation") != (planes == 0):
            raise ValueError(f"inputs {inputs!r} with {planes} extra planes: only 'observation' has none")
        self.inputs = inputs
        self.obs_size, self.num_actions = obs_size, num_actions
        self.planes = planes
        widths = [obs_size + self.planes * num_actions, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths[:-1], widths[1:]))
        self.policy = nn.Linear(widths[-1], num_actions)
        self.value = nn.Linear(widths[-1], 1)
        if self.planes:
            self.prior = PlaneWeights()
        self.hidden = tuple(hidden)

    def forward(self, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (n, NUM_ACTIONS) and value logits (n,) (sigmoid: the expected outcome value) of
        input rows: observations, followed by the heuristic planes if the network reads them."""
        x = rows
        for layer in self.trunk:
            x = F.relu(layer(x))
        logits = self.policy(x)
        if self.planes:
            planes = rows[:, self.obs_size:].reshape(len(rows), self.planes, self.num_actions)
            logits = logits + torch.einsum("c,nca->na", self.prior.weight, planes)
        return logits, self.value(x).squeeze(-1)


def save_network(model: PolicyValueNet, path: str, info: dict[str, Any] | None, metadata: dict[str, str],
                 dtype: str = "float32") -> None:
    """Writes `model` as a safetensors weight file with the game's `metadata` (its format and
    observation fingerprint; `info` goes to it as JSON; `dtype="float16"` halves the file, see
    `maquis.common.network_file`)."""
    tensors = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    meta = dict(metadata)
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
    model = PolicyValueNet(tuple(hidden), inputs, row - planes * num_actions, num_actions, planes)
    load_network_into(model, path)
    return model


__all__ = ["PolicyValueNet", "save_network", "load_network_into", "model_from_file"]

"""The network in torch (training only) and its `maquis-net-v1` weight file.

`PolicyValueNet(hidden)` holds exactly the tensors of the file (see `maquis.network`): `trunk.{i}`
linear layers with ReLU, a `policy` head of NUM_ACTIONS logits and a `value` head whose sigmoid is
the expected outcome value (win 1, draw 0.5, loss 0). `save_network` writes the file with the
metadata the Rust loader checks; `load_network_into` reads one back into a model.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from maquis import NUM_ACTIONS, OBS_SIZE
from maquis.network import network_metadata, read_network_file, write_network_file


class PolicyValueNet(nn.Module):
    def __init__(self, hidden: tuple[int, ...] = (256, 256)) -> None:
        super().__init__()
        widths = [OBS_SIZE, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths[:-1], widths[1:]))
        self.policy = nn.Linear(widths[-1], NUM_ACTIONS)
        self.value = nn.Linear(widths[-1], 1)
        self.hidden = tuple(hidden)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (n, NUM_ACTIONS) and value logits (n,) (sigmoid: the expected outcome value)."""
        x = obs
        for layer in self.trunk:
            x = F.relu(layer(x))
        return self.policy(x), self.value(x).squeeze(-1)


def save_network(model: PolicyValueNet, path: str, info: dict[str, Any] | None = None, dtype: str = "float32") -> None:
    """Writes `model` as a `maquis-net-v1` safetensors file (`info` goes to the metadata as JSON;
    `dtype="float16"` halves the file, see `write_network_file`)."""
    tensors = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    write_network_file(path, tensors, {"training": json.dumps(info or {}, sort_keys=True)}, dtype=dtype)


def load_network_into(model: PolicyValueNet, path: str) -> dict[str, str]:
    """Loads a `maquis-net-v1` file into `model` (same hidden widths); returns its metadata."""
    tensors, meta = read_network_file(path)
    model.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in tensors.items()})
    return meta


def model_from_file(path: str) -> PolicyValueNet:
    """A model with the hidden widths of a weight file, loaded from it."""
    tensors, _ = read_network_file(path)
    hidden = []
    while f"trunk.{len(hidden)}.weight" in tensors:
        hidden.append(tensors[f"trunk.{len(hidden)}.weight"].shape[0])
    model = PolicyValueNet(tuple(hidden))
    load_network_into(model, path)
    return model


__all__ = ["PolicyValueNet", "save_network", "load_network_into", "model_from_file", "network_metadata"]

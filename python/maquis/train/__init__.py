"""Training the learned network (torch, CPU; `pip install "maquis[train]"`).

- `maquis.train.model`: the torch `PolicyValueNet` and its `maquis-net-v1` weight file.
- `maquis.train.rollout`: the learner's rollout loop on a device (CPU or CUDA): uint8 observations
  through pinned memory, masked sampling on the device, the environments in halves stepped in
  turn (`send`/`recv`) while the network acts on the other half; used by `maquis bench --train`
  and `examples/masked_ppo.py`.
- `maquis.train.expert`: expert iteration (`maquis train`): generation 0 imitates the bundled
  search agent, each later generation learns from games of the network-guided search played with
  the previous network (improved-policy and outcome targets), with a learning curve per generation.

Playing a trained network needs none of this: it runs in Rust (`maquis.agents.NetworkAgent`,
`NetworkSearchAgent`). See docs/training.md.
"""

"""Training the learned network (torch, CPU; `pip install "maquis[train]"`).

- `maquis.train.model`: the torch `PolicyValueNet` and its `maquis-net-v1` weight file.
- `maquis.train.rollout`: the learner's rollout loop on a device (CPU or CUDA): uint8 observations
  through pinned memory, masked sampling on the device, the environments in halves stepped in
  turn (`send`/`recv`) while the network acts on the other half; used by `maquis bench --train`
  and `maquis.train.ppo`.
- `maquis.train.ppo`: the masked-PPO core (masking, next-step autoreset, DAgger warm start, the
  curve) of the PPO learners: `examples/train_ppo.py`, `examples/maurice_ppo.py` and
  `maquis.train.dday_ppo` (D-Day's, run by `examples/dday_ppo.py`).
- `maquis.train.expert`: expert iteration (`maquis train`): generation 0 imitates the bundled
  search agent, each later generation learns from games of the network-guided search played with
  the previous network (improved-policy and outcome targets), with a learning curve per generation.
- `maquis.train.dday`: expert iteration for D-Day 1944 (`maquis dday train`): generation 0
  imitates D1 `search` for both seats, later generations `network_search` with the previous
  network; the curve is the win rate against each bundled opponent from both seats.
- `maquis.train.dday_distill`: its distillation generation (`--init NET --distill SIDE=POLICY`,
  once per side): each named side's moves from a saved policy (e.g. a PPO learner), a side not
  named from the starting network, as soft targets, so that one network holds both.
- `maquis.train.dday_recipe`: `maquis dday train --recipe shipped`, the shipped D-Day network from
  one command (expert iteration, a PPO German, a PPO Resistance, a distillation; resumable).
- `maquis.train.common`: what both share (the training passes, checkpoint and resume, the curve's
  PNG).

Playing a trained network needs none of this: it runs in Rust (`maquis.agents.NetworkAgent`,
`NetworkSearchAgent`; `maquis.dday.agents.NetworkAgent`, `NetworkSearchAgent`). See docs/training.md
and docs/dday_training.md.
"""

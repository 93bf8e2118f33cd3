"""Training the learned network (torch, CPU; `pip install "maquis[train]"`).

- `maquis.train.model`: the torch `PolicyValueNet` and its `maquis-net-v1` weight file.
- `maquis.train.rollout`: the learner's rollout loop on a device (CPU or CUDA): uint8 observations
  through pinned memory, masked sampling on the device, the environments in halves stepped in
  turn (`send`/`recv`) while the network acts on the other half; used by `maquis bench --train`
  and `maquis.train.ppo`.
- `maquis.train.ppo`: the masked-PPO core (masking, next-step autoreset, DAgger warm start, the
  curve) of the PPO learners: `examples/train_ppo.py`, `examples/maurice_ppo.py` and
  `maquis.dday.train.ppo` (D-Day's, run by `examples/dday_ppo.py`).
- `maquis.train.common`: what every game's expert iteration shares (the training passes,
  checkpoint and resume, the curve's PNG).
- `maquis.train.iteration`: expert iteration for a two-player game (the generation loop, the data
  window, resume, the curve's rows, the evaluation from both seats, the gate that keeps a
  generation only if the ladder's sequential test says it is stronger), over a game's
  `ExpertGame`: `maquis dday train`, `maquis maurice train`.
- `maquis.train.recipe`: a shipped network from one resumable command (`--recipe shipped`): steps
  in folders, finished ones skipped, `--recipe-scale`, the final copy.

Each game's own trainers are in its folder: `maquis.maquis.train.expert` (`maquis train`),
`maquis.dday.train` (`maquis dday train`: `expert`, `distill`, `recipe`, and the `ppo` learner),
`maquis.maurice.train` (`maquis maurice train`: `expert`, `recipe`).

Playing a trained network needs none of this: it runs in Rust (`maquis.maquis.agents.NetworkAgent`,
`NetworkSearchAgent`; `maquis.dday.agents.NetworkAgent`, `NetworkSearchAgent`; the same in
`maquis.maurice.agents`). See docs/training.md, docs/dday_training.md and docs/maurice_training.md.
"""

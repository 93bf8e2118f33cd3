"""D-Day 1944's training (torch: `pip install "maquis[train]"`), over the shared core of `maquis.train`.

- `expert`: expert iteration (`maquis dday train`): generation 0 imitates D1 `search` for both
  seats, later generations `network_search` with the previous network; the curve is the win rate
  against each bundled opponent from both seats.
- `distill`: its distillation generation (`--init NET --distill SIDE=POLICY`, once per side).
- `ppo`: the PPO learner of `examples/dday_ppo.py`.
- `recipe`: `maquis dday train --recipe shipped`, the shipped D-Day network from one command.
"""

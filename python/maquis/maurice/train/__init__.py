"""Maurice Lite's training (torch: `pip install "maquis[train]"`), over the shared core of `maquis.train`.

- `expert`: expert iteration (`maquis maurice train`): generation 0 imitates D1 `search` for both
  seats, later generations `network_search` with the previous network (`maquis.train.iteration`); the
  curve is the win rate against each bundled opponent from both seats; `--gate` keeps a generation
  only if it is stronger than the last kept one.
- `recipe`: the shipped network from one resumable command (`maquis maurice train --recipe shipped`,
  over `maquis.train.recipe`).
"""

"""The solitaire's training (torch: `pip install "maquis[train]"`), over the shared core of `maquis.train`.

- `expert`: expert iteration (`maquis train`): generation 0 imitates the bundled search agent,
  each later generation learns from games of the network-guided search played with the previous
  network (improved-policy and outcome targets), with a learning curve per generation.
"""

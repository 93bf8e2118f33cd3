"""Pieces shared by every game of the package: environments, command line, evaluation, docs."""

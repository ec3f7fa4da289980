"""Engines that judge positions: the protocol (:mod:`bgcli.engines.protocol`) and one module per backend."""

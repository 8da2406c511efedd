"""Python tools around xsim runs: machine-parameter sweeps, linear models of predicted time,
and figures. Used by the installed `xsim-sweep` (and later `xsim-plot`) commands."""

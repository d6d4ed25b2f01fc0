"""The coverage study of ``benchmarks/coverage.py``, one concept a module.

The design, the estimands and the cost are described in the docstring of
``benchmarks/coverage.py``, the command line. The modules, each importing only modules
listed before it:

* ``common``: the shared design (confidence level, acceptance band, the grid of cells,
  the columns every part writes, the quantities' labels), the coverage summary of one
  interval method, the cells' seeds and the ``--cells`` filter;
* ``render``: the Markdown helpers both parts render with (cell order and labels, pivot
  tables, the acceptance table, the default entries outside the band, the tables of the
  test sets left out and of the warnings emitted);
* ``cm``: part ``cm``, the confusion-matrix quantities: classifiers, interval methods,
  cells, truths, the simulation of a cell, and the exact coverage and coverage floor of
  the intervals for alpha and beta;
* ``cm_render``: part ``cm``'s Markdown sections;
* ``curve``: part ``curve``, ROC AUC and PR AUC from simulated binormal scores: interval
  methods, the population average precision, cells, the simulation of a cell;
* ``curve_render``: part ``curve``'s Markdown sections;
* ``parts``: the registry of parts (``Part``, ``PARTS``);
* ``runs``: a run's rows after the simulation: merged with an earlier run's, printed as
  console tables, written as Markdown with how every run was made.
"""

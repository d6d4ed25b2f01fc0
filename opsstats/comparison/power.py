"""Sample size and power of ROC AUC tests, as R pROC's ``power.roc.test``: one curve
against AUC 0.5 (Obuchowski 2004) and two paired curves (Obuchowski and McClish 1997),
with DeLong's or Obuchowski's variances (docs/method.md#comparisons).

Each function solves for the one quantity left out (``None``): the number of cases (and
controls, ``kappa`` times as many), the power, the significance level or (one curve) the
AUC. Sample sizes are not rounded, as in pROC.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import (
    check_choice,
    check_digits,
    check_instance,
    check_pair,
    check_real,
    describe,
)
from ..curves import ScoreCurve
from ..curves._partial import parse_partial
from ._inputs import paired_scores
from .delong import _covariance

if TYPE_CHECKING:
    from scipy import optimize, stats
else:
    optimize = lazy_module("scipy.optimize")
    stats = lazy_module("scipy.stats")

__all__ = [
    "PowerResult",
    "binormal_fit",
    "obuchowski_covariance",
    "obuchowski_variance",
    "power_roc_test",
    "power_roc_test_curves",
    "power_roc_test_params",
]

#: pROC's one-curve null variance per case, 0.0792 (1 + 1/kappa) (Obuchowski 2004)
_V0 = 0.0792


@dataclass(frozen=True)
class PowerResult:
    """A sample size or power calculation: every quantity, the one solved for included.

    Examples
    --------
    >>> r = power_roc_test(0.8, power=0.9)
    >>> round(r.ncases, 4), r.solved_for
    (16.6192, 'ncases')
    """

    ncases: float
    ncontrols: float
    sig_level: float
    power: float
    alternative: str
    method: str
    solved_for: str
    auc: tuple[float, ...] = ()

    def to_string(self, digits: int = 4) -> str:
        digits = check_digits(digits)
        aucs = ", ".join(f"{a:.{digits}f}" for a in self.auc)
        lines = [
            "",
            f"     {self.method}",
            "",
            f"          ncases = {self.ncases:.{digits}f}",
            f"       ncontrols = {self.ncontrols:.{digits}f}",
        ]
        if aucs:
            lines.append(f"             auc = {aucs}")
        lines += [
            f"       sig.level = {self.sig_level:.{digits}g}",
            f"           power = {self.power:.{digits}g}",
            f"     alternative = {self.alternative}",
            f"    (solved for {self.solved_for})",
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_string()


def _alternative(alternative: Any) -> str:
    if alternative == "two.sided":
        alternative = "two-sided"
    if alternative == "one.sided":
        alternative = "one-sided"
    return check_choice("alternative", alternative, ("two-sided", "one-sided"))


def _prob(name: str, value: Any) -> Any:
    if value is None:
        return None
    return check_real(name, value, low=0.0, high=1.0, low_open=True, high_open=True)


def _positive(name: str, value: Any) -> Any:
    if value is None:
        return None
    return check_real(name, value, low=0.0, low_open=True)


#: The largest binormal parameter taken (a in [-1e6, 1e6], b in (0, 1e6]).
_LARGEST = 1e6


def _binormal(
    names: tuple[str, str], a: Any, b: Any, fpr: Any, fpr_name: str
) -> tuple[float, float, tuple[float, float] | None]:
    """Obuchowski and McClish's binormal parameters of one curve: ``a`` any finite
    number, ``b`` (the ratio of the classes' standard deviations) positive, and the
    false-positive range of a partial area, if any, inside [0, 1]."""
    # beyond 1e6 the formulas overflow, and the curve is a perfect or a chance one anyway
    a = check_real(names[0], a, low=-_LARGEST, high=_LARGEST)
    b = check_real(names[1], b, low=0.0, high=_LARGEST, low_open=True)
    if fpr is not None:
        lo, hi = check_pair(fpr_name, fpr)
        if lo < 0 or hi > 1:
            raise ValueError(
                f"`{fpr_name}` must be a range (low, high) of false-positive rates inside "
                f"[0, 1]; got ({lo!r}, {hi!r})."
            )
        fpr = (lo, hi)
    return a, b, fpr


def _correlation(name: str, value: Any) -> float:
    return check_real(name, value, low=-1.0, high=1.0)


def _one_missing(**values: Any) -> str:
    missing = [k for k, v in values.items() if v is None]
    if len(missing) != 1:
        names = ", ".join(f"`{k}`" + (" (or `ncontrols`)" if k == "ncases" else "") for k in values)
        raise ValueError(
            f"leave exactly one of {names} as None (the "
            f"quantity to solve for); got {len(missing)} left out"
            + (f" ({', '.join(missing)})." if missing else ".")
        )
    return missing[0]


def _solve(
    zalpha: Any,
    zbeta: Any,
    nd: Any,
    v0: float,
    va: float,
    delta: float,
) -> tuple[float, float, float]:
    """pROC's solve.nd / solve.zbeta / solve.zalpha: fill the one None."""
    if nd is None:
        nd = (zalpha * np.sqrt(v0) + zbeta * np.sqrt(va)) ** 2 / delta**2
    elif zbeta is None:
        zbeta = (np.sqrt(nd * delta**2) - zalpha * np.sqrt(v0)) / np.sqrt(va)
    else:
        zalpha = (np.sqrt(nd * delta**2) - zbeta * np.sqrt(va)) / np.sqrt(v0)
    return float(zalpha), float(zbeta), float(nd)


def _finish(
    zalpha: Any,
    zbeta: Any,
    nd: Any,
    kappa: Any,
    alternative: str,
    method: str,
    solved: str,
    auc: tuple[float, ...],
    ncontrols: float | None = None,
) -> PowerResult:
    sig = float(stats.norm.sf(zalpha))
    if alternative == "two-sided":
        sig *= 2
    if solved == "sig_level" and not sig < 1:
        raise ValueError(
            f"`power` {float(stats.norm.cdf(zbeta)):g} is not reached at any significance "
            f"level below 1 with {nd:g} cases: the difference is too small for this "
            f"sample (the formula gives a level of {sig:.4g}, which is no answer)."
        )
    return PowerResult(
        ncases=nd,
        ncontrols=kappa * nd if ncontrols is None else ncontrols,
        sig_level=sig,
        power=float(stats.norm.cdf(zbeta)),
        alternative=alternative,
        method=method,
        solved_for=solved,
        auc=auc,
    )


def _one_curve_va(auc: float, kappa: float) -> float:
    a = float(stats.norm.ppf(auc)) * 1.414  # 1.414, not sqrt(2), as pROC
    return 0.0099 * np.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / kappa)


def power_roc_test(
    auc: float | None = None,
    *,
    ncases: float | None = None,
    ncontrols: float | None = None,
    kappa: Any = 1.0,
    sig_level: float | None = 0.05,
    power: float | None = None,
    alternative: str = "two-sided",
) -> PowerResult:
    """Sample size, power, significance level or AUC of the test of one ROC AUC against
    0.5, as pROC's ``power.roc.test(auc=..., ...)`` (Obuchowski 2004).

    Parameters
    ----------
    auc : float in (0.5, 1), optional
    ncases, ncontrols : float, optional
        Either, with ``kappa = ncontrols / ncases`` giving the other.
    kappa : float, default 1
    sig_level, power : float in (0, 1), optional
    alternative : {"two-sided", "one-sided"}
        Two-sided halves ``sig_level`` per side, as pROC.

    Returns
    -------
    PowerResult

    Notes
    -----
    ``ncases = (z_a sqrt(V0) + z_b sqrt(VA))**2 / (auc - 0.5)**2`` with
    ``V0 = 0.0792 (1 + 1/kappa)`` and ``VA = 0.0099 exp(-A**2/2) ((5A**2 + 8) + (A**2 +
    8)/kappa)``, ``A = 1.414 qnorm(auc)``. Solving for the AUC finds the root by
    Brent's method to 1e-12 (pROC's ``uniroot`` stops near 1e-4).

    Examples
    --------
    >>> round(power_roc_test(0.7, ncases=50, ncontrols=50).power, 6)
    0.952004
    """
    alternative = _alternative(alternative)
    ncases, ncontrols = _positive("ncases", ncases), _positive("ncontrols", ncontrols)
    kappa_v = _positive("kappa", kappa)
    sig, pw = _prob("sig_level", sig_level), _prob("power", power)
    if auc is not None:
        auc = check_real("auc", auc, low=0.5, high=1.0, low_open=True, high_open=True)
    if ncontrols is None and ncases is not None and kappa_v is not None:
        ncontrols = kappa_v * ncases
    elif ncases is None and ncontrols is not None and kappa_v is not None:
        ncases = ncontrols / kappa_v
    solved = _one_missing(auc=auc, ncases=ncases, power=pw, sig_level=sig)
    if sig is not None and alternative == "two-sided":
        sig /= 2
    za = None if sig is None else float(stats.norm.isf(sig))
    zb = None if pw is None else float(stats.norm.ppf(pw))
    method = "One ROC curve power calculation (Obuchowski 2004, as pROC)"
    if solved == "auc":
        k = ncontrols / ncases

        def excess(x: float) -> float:
            v = _one_curve_va(x, k)
            return (za * np.sqrt(_V0 * (1 + 1 / k)) + zb * np.sqrt(v)) ** 2 / (
                x - 0.5
            ) ** 2 - ncases

        root = optimize.brentq(excess, 0.5 + 1e-12, 1 - 1e-16, xtol=1e-14, rtol=1e-14)
        return _finish(za, zb, ncases, k, alternative, method, "auc", (root,), ncontrols)
    theta = float(auc) if auc is not None else float("nan")  # given, when not solved for
    k = kappa_v if solved == "ncases" else ncontrols / ncases
    v0 = _V0 * (1 + 1 / k)
    za, zb, nd = _solve(za, zb, ncases, v0, _one_curve_va(theta, k), theta - 0.5)
    return _finish(
        za,
        zb,
        nd,
        k,
        alternative,
        method,
        solved,
        (theta,),
        None if solved == "ncases" else ncontrols,
    )


# ----------------------------------------------------------------- Obuchowski
def binormal_fit(curve: ScoreCurve) -> tuple[float, float]:
    """pROC's binormal fit of an empirical ROC curve: the least-squares line
    ``qnorm(sp) = A + B qnorm(se)`` through the curve's points with finite probits
    (``smooth(roc, method="binormal")``'s ``lm``), returned as (A, B); B < 0. pROC
    gives (A, B) to Obuchowski's variance of the full area, which depends on the slope
    only through its square (and, for two curves, the product of their slopes):
    :func:`obuchowski_variance` takes its magnitude, ``-B``.

    Examples
    --------
    >>> c = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1, 0, 1, 0, 1],
    ...                            [1, 2, 3, 4, 2.5, 5, 3.5, 1.5, 4.5, 2.2])
    >>> [round(v, 4) for v in binormal_fit(c)]
    [0.2261, -0.8807]
    """
    curve = check_instance("curve", curve, ScoreCurve)
    se = 1.0 - np.asarray(curve.beta, dtype=float)
    sp = 1.0 - np.asarray(curve.alpha, dtype=float)
    ok = (se > 0) & (se < 1) & (sp > 0) & (sp < 1)
    if ok.sum() < 2:
        raise ValueError(
            "the binormal fit (Obuchowski's variance) needs at least 2 points of the ROC "
            f"curve strictly inside the unit square; {curve!r} has {int(ok.sum())}."
        )
    x, y = stats.norm.ppf(se[ok]), stats.norm.ppf(sp[ok])
    slope, intercept = np.polyfit(x, y, 1)
    return float(intercept), float(slope)


def _f_g(a: float, b: float, fpr: tuple[float, float] | None) -> tuple[float, float]:
    e1 = np.exp(-(a**2) / (2 * (1 + b**2)))
    e2 = 1 + b**2
    if fpr is None:
        return e1 * (2 * np.pi * e2) ** -0.5, -e1 * a * b * (2 * np.pi * e2**3) ** -0.5
    c1, c2 = ((stats.norm.ppf(f) + a * b / e2) * np.sqrt(e2) for f in fpr)
    e3 = stats.norm.cdf(c1) - stats.norm.cdf(c2)
    e4 = np.exp(-(c1**2) / 2) - np.exp(-(c2**2) / 2)
    f = e1 * (2 * np.pi * e2) ** -0.5 * e3
    g = e1 * (2 * np.pi * e2) ** -1 * (-e4) - a * b * e1 * (2 * np.pi * e2**3) ** -0.5 * e3
    return float(f), float(g)


def obuchowski_variance(
    a: float, b: float, kappa: float, fpr: tuple[float, float] | None = None
) -> float:
    """Obuchowski and McClish's (1997, Table 1) variance of the (partial) binormal AUC,
    per case (divide by the number of cases), as pROC's ``var.params.obuchowski``.

    ``(a, b)`` the binormal parameters (``b > 0``, the ratio of the standard
    deviations; from :func:`binormal_fit`'s (A, B), ``(A, -B)``), ``kappa`` controls
    per case, ``fpr`` the (lower, upper) false-positive rates of a partial area, inside
    [0, 1].

    Examples
    --------
    >>> round(obuchowski_variance(1.2, 1.0, 1.0), 6)
    0.119302
    """
    a, b, fpr = _binormal(("a", "b"), a, b, fpr, "fpr")
    kappa = check_real("kappa", kappa, low=0.0, low_open=True)
    return _variance(a, b, kappa, fpr)


def _variance(a: float, b: float, kappa: float, fpr: tuple[float, float] | None) -> float:
    f, g = _f_g(a, b, fpr)
    return float(
        f * f * (1 + b * b / kappa + a * a / 2) + g * g * b * b * (1 + kappa) / (2 * kappa)
    )


def obuchowski_covariance(
    a1: float,
    b1: float,
    a2: float,
    b2: float,
    rn: float,
    ra: float,
    kappa: float,
    fpr1: tuple[float, float] | None = None,
    fpr2: tuple[float, float] | None = None,
) -> float:
    """Obuchowski and McClish's covariance of two correlated binormal AUCs, per case
    (pROC's ``cov.params.obuchowski``); ``rn``, ``ra`` the correlations of the two
    scores among the negatives and among the positives.

    Examples
    --------
    >>> round(obuchowski_covariance(1.2, 1.0, 0.8, 1.2, 0.5, 0.5, 1.0), 6)
    0.051141
    """
    a1, b1, fpr1 = _binormal(("a1", "b1"), a1, b1, fpr1, "fpr1")
    a2, b2, fpr2 = _binormal(("a2", "b2"), a2, b2, fpr2, "fpr2")
    rn, ra = _correlation("rn", rn), _correlation("ra", ra)
    kappa = check_real("kappa", kappa, low=0.0, low_open=True)
    return _covariance_params(a1, b1, a2, b2, rn, ra, kappa, fpr1, fpr2)


def _covariance_params(
    a1: float,
    b1: float,
    a2: float,
    b2: float,
    rn: float,
    ra: float,
    kappa: float,
    fpr1: tuple[float, float] | None = None,
    fpr2: tuple[float, float] | None = None,
) -> float:
    f1, g1 = _f_g(a1, b1, fpr1)
    f2, g2 = _f_g(a2, b2, fpr2)
    return float(
        f1 * f2 * (ra + rn * b1 * b2 / kappa + ra**2 * a1 * a2 / 2)
        + g1 * g2 * (b1 * b2 * (rn**2 + kappa * ra**2) / (2 * kappa))
        + f1 * g2 * (ra**2 * a1 * b2 / 2)
        + f2 * g1 * (ra**2 * a2 * b1 / 2)
    )


def _two_curve(
    var1: float,
    var2: float,
    cov: float,
    delta: float,
    ncases: Any,
    kappa: Any,
    sig: float | None,
    pw: float | None,
    alternative: str,
    method: str,
    auc: tuple[float, ...],
    ncontrols: float | None = None,
    source: str = "the difference",
) -> PowerResult:
    solved = _one_missing(ncases=ncases, power=pw, sig_level=sig)
    if solved == "ncases" and delta == 0:
        raise ValueError(
            f"{source} must be non-zero to solve for the number of cases: no sample size "
            "detects a difference of 0 in the AUCs; got 0."
        )
    if sig is not None and alternative == "two-sided":
        sig /= 2
    za = None if sig is None else float(stats.norm.isf(sig))
    zb = None if pw is None else float(stats.norm.ppf(pw))
    v0 = 2 * var1 - 2 * cov  # pROC's null variance: roc1's variance twice
    va = var1 + var2 - 2 * cov
    if not (v0 > 0 and va > 0):  # pROC: NaN, with "NaNs produced"
        raise ValueError(
            "no power or sample size for these two curves: the variance of the difference "
            f"under the null, 2 V1 - 2 C = {v0:.4g} (pROC's, from the first curve's variance "
            f"V1 = {var1:.4g} and the covariance C = {cov:.4g}), or under the alternative, "
            f"V1 + V2 - 2 C = {va:.4g}, is not positive (pROC returns NaN)."
        )
    za, zb, nd = _solve(za, zb, ncases, v0, va, delta)
    return _finish(
        za,
        zb,
        nd,
        kappa,
        alternative,
        method,
        solved,
        auc,
        None if solved == "ncases" else ncontrols,
    )


def power_roc_test_params(
    a1: float,
    b1: float,
    a2: float,
    b2: float,
    rn: float,
    ra: float,
    delta: float,
    *,
    fpr1: tuple[float, float] | None = None,
    fpr2: tuple[float, float] | None = None,
    ncases: float | None = None,
    ncontrols: float | None = None,
    kappa: float = 1.0,
    sig_level: float | None = 0.05,
    power: float | None = None,
    alternative: str = "two-sided",
) -> PowerResult:
    """Two paired binormal curves from their parameters, as pROC's
    ``power.roc.test(list(A1=, B1=, A2=, B2=, rn=, ra=, delta=, FPR11=...), ...)``.

    Examples
    --------
    >>> from scipy.stats import norm
    >>> d = norm.cdf(1.2 / 2**0.5) - norm.cdf(0.8 / (1 + 1.2**2)**0.5)
    >>> round(power_roc_test_params(1.2, 1, 0.8, 1.2, 0.5, 0.5, d, power=0.8).ncases, 4)
    100.9935
    """
    alternative = _alternative(alternative)
    a1, b1, fpr1 = _binormal(("a1", "b1"), a1, b1, fpr1, "fpr1")
    a2, b2, fpr2 = _binormal(("a2", "b2"), a2, b2, fpr2, "fpr2")
    rn, ra = _correlation("rn", rn), _correlation("ra", ra)
    delta = check_real("delta", delta, low=-1.0, high=1.0)
    ncases, ncontrols = _positive("ncases", ncases), _positive("ncontrols", ncontrols)
    k = _positive("kappa", kappa)
    if ncontrols is None and ncases is not None:
        ncontrols = k * ncases
    elif ncases is None and ncontrols is not None:
        ncases = ncontrols / k
    if ncases is not None:
        k = ncontrols / ncases
    var1 = _variance(a1, b1, k, fpr1)
    var2 = _variance(a2, b2, k, fpr2)
    cov = _covariance_params(a1, b1, a2, b2, rn, ra, k, fpr1, fpr2)
    return _two_curve(
        var1,
        var2,
        cov,
        delta,
        ncases,
        k,
        _prob("sig_level", sig_level),
        _prob("power", power),
        alternative,
        "Two ROC curves power calculation (Obuchowski and McClish 1997, as pROC)",
        (),
        ncontrols,
        "`delta`",
    )


def power_roc_test_curves(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "delong",
    sig_level: float | None = 0.05,
    power: float | None = None,
    kappa: float | None = None,
    alternative: str = "two-sided",
    pos_label: Any = None,
    fpr_range: Any = None,
) -> PowerResult:
    """Power or sample size from observed data, as pROC's ``power.roc.test(r1)`` (one
    curve against 0.5) or ``power.roc.test(r1, r2, method=...)`` (two paired curves),
    of the ROC AUCs or of two curves' partial AUCs.

    Parameters
    ----------
    y_true : array-like
    y_score : dict {name: scores} or list of one or two score arrays
    method : {"delong", "obuchowski"}
        The variances and covariance of two curves (one curve: always Obuchowski 2004).
    sig_level, power : float, optional
        With both given the number of cases is solved for (``ncontrols = kappa *
        ncases``, kappa the observed ratio unless given); otherwise the missing one at
        the observed class sizes.
    kappa : float, optional
    alternative : {"two-sided", "one-sided"}
    pos_label : label, optional
    fpr_range : (low, high), optional
        Two curves' partial AUCs over this false positive rate range (uncorrected, as
        :meth:`ScoreCurve.partial_auc`), with ``method="obuchowski"``: Obuchowski and
        McClish's variances of the partial binormal area, as pROC's
        ``power.roc.test(r1, r2, method="obuchowski")`` for roc objects made with
        ``partial.auc=c(1 - low, 1 - high)`` (focus specificity). pROC refuses the
        DeLong variance of a partial AUC, the sensitivity focus and the McClish
        correction here, and so does this function; for one curve pROC would put the
        partial area into the full AUC's formula against 0.5, which is not offered.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0]
    >>> a = [.1, .4, .35, .8, .2, .9, .3, .7, .5, .45, .6, .25]
    >>> round(power_roc_test_curves(y, [a]).power, 4)
    0.8432
    """
    alternative = _alternative(alternative)
    method = check_choice("method", method, ("delong", "obuchowski"))
    partial = None if fpr_range is None else parse_partial({"fpr_range": fpr_range})
    if partial is not None and method != "obuchowski":
        raise ValueError(
            "the power of a partial AUC uses Obuchowski and McClish's variances: give "
            "method='obuchowski' with `fpr_range` (DeLong's variance of a partial AUC is "
            f"not offered, as in pROC); got method={method!r}."
        )
    if isinstance(y_score, list | tuple) and len(y_score) == 1:
        y_score = {"A": y_score[0]}
    if isinstance(y_score, dict) and len(y_score) == 1:
        if partial is not None:
            raise ValueError(
                "`fpr_range` needs two classifiers: the power of one curve is that of its "
                "full ROC AUC against 0.5 (Obuchowski 2004), whose formula does not apply "
                "to a partial area."
            )
        ((_name, s),) = y_score.items()
        curve = ScoreCurve.from_scores(y_true, s, pos_label=pos_label)
        m, n = float(curve.n_positive), float(curve.n_negative)
        if not 0.5 < curve.auc() < 1:
            raise ValueError(
                "`y_score` must rank the positives above the negatives but not perfectly "
                "(the test of one curve is of an ROC AUC in (0.5, 1) against 0.5); got "
                f"scores whose ROC AUC is {curve.auc():.6g}."
            )
        sig, pw = _prob("sig_level", sig_level), _prob("power", power)
        if sig is not None and pw is not None:
            k = n / m if kappa is None else _positive("kappa", kappa)
            return power_roc_test(
                curve.auc(),
                kappa=k,
                sig_level=sig,
                power=pw,
                alternative=alternative,
            )
        return power_roc_test(
            curve.auc(), ncases=m, ncontrols=n, sig_level=sig, power=pw, alternative=alternative
        )
    is_pos, scores = paired_scores(y_true, y_score, pos_label)
    if len(scores) != 2:
        raise ValueError(
            f"`y_score` must hold 1 or 2 classifiers; got {len(scores)}: {describe(list(scores))}."
        )
    m, n = float(is_pos.sum()), float((~is_pos).sum())
    k = n / m if kappa is None else _positive("kappa", kappa)
    (_na, sa), (_nb, sb) = scores.items()
    aucs, cov = _covariance(is_pos, [sa, sb])
    if method == "delong":
        var1, var2, c12 = cov[0, 0] * m, cov[1, 1] * m, cov[0, 1] * m
    else:
        curves = [ScoreCurve.from_scores(is_pos, s, pos_label=True) for s in (sa, sb)]
        # pROC passes the fit's negative slopes; the full-area formulas depend on them
        # only through b1**2, b2**2 and b1 * b2, the partial area's also through their sign
        (a1, b1), (a2, b2) = binormal_fit(curves[0]), binormal_fit(curves[1])
        with np.errstate(invalid="ignore", divide="ignore"):
            ra = float(np.corrcoef(sa[is_pos], sb[is_pos])[0, 1])
            rn = float(np.corrcoef(sa[~is_pos], sb[~is_pos])[0, 1])
        if not (np.isfinite(ra) and np.isfinite(rn)):
            raise ValueError(
                "`y_score` must vary within each class for method='obuchowski' (the "
                "correlation of the two classifiers' scores among the positives and among "
                "the negatives); got scores constant within a class."
            )
        kk = n / m
        fpr = None if partial is None else (partial.low, partial.high)
        var1, var2 = _variance(a1, b1, kk, fpr), _variance(a2, b2, kk, fpr)
        c12 = _covariance_params(a1, b1, a2, b2, rn, ra, kk, fpr, fpr)
        if partial is not None:  # the difference of the partial areas, uncorrected
            aucs = np.array([c.partial_auc(fpr_range=fpr) for c in curves])
    sig, pw = _prob("sig_level", sig_level), _prob("power", power)
    ncases = None if (sig is not None and pw is not None) else m
    return _two_curve(
        var1,
        var2,
        c12,
        float(aucs[0] - aucs[1]),
        ncases,
        k,
        sig,
        pw,
        alternative,
        f"Two ROC curves power calculation ({'DeLong' if method == 'delong' else 'Obuchowski'}"
        " variances"
        + ("" if partial is None else f", partial AUCs over FPR {partial.low:g}-{partial.high:g}")
        + ", as pROC)",
        (float(aucs[0]), float(aucs[1])),
        None if ncases is None else n,
        f"the difference of the {'' if partial is None else 'partial '}AUCs of `y_score`",
    )

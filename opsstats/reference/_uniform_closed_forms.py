"""Closed forms of the outperformance score under the uniform reference.

With A, B independent U[0, 1], OPS_M(mu; pi) is the area of {(alpha, beta) : M < mu}
(``>`` for lower-is-better metrics). Most confusion-matrix metrics are linear-fractional
in (alpha, beta) with a denominator of constant sign, so their level sets are straight
lines and the area is that of a half-plane cut of the unit square
(:func:`_pr_linear_lt`). A few others reduce to products or ratios of two uniforms.
Every formula here is checked against the quadrature engine in
``tests/test_uniform_reference.py`` (to 1e-9).

Write x = 1 - beta (recall), y = 1 - alpha (specificity), p = pi, q = 1 - pi.

- recall, specificity: OPS = mu; fpr, fnr: OPS = 1 - mu.
- informedness J = x + y - 1 = 1 - A - B: A + B is triangular on [0, 2];
  balanced accuracy = (1 + J) / 2.
- accuracy = 1 - (qA + pB); error rate = qA + pB: a weighted sum of uniforms.
- precision: p x < mu (p x + q alpha) is the half-plane alpha > k x with
  k = p (1 - mu) / (mu q): OPS = 1 - k/2 (k <= 1), 1/(2k) (k > 1); lift = precision / p,
  fdr = 1 - precision; npv, false omission rate likewise with the classes exchanged.
- F-beta (F1: paper eq. 7, docs/method.md#uniform-reference), Jaccard, Cohen's kappa,
  LR+, LR- and the prevalence threshold: half-planes as well (kappa's denominator is
  p + (q - p) (p x + q alpha) > 0).
- G-mean: x y < mu^2 for X, Y iid uniform: OPS = m (1 - ln m), m = mu^2.
- diagnostic odds ratio (x / (1 - x)) / (alpha / (1 - alpha)) < mu:
  OPS = 1 - 1/d - mu ln(mu) / d^2, d = 1 - mu (does not depend on pi).

- MCC: the level set {MCC = mu} at fixed alpha is explicit,
  x*(alpha) = (2 q alpha (1 - m) + m + mu sqrt(m + (4q/p) alpha (1 - alpha))) / (2 (q + m p)),
  m = mu^2 (:func:`mcc_level_set`), and the integral of the square root of a quadratic
  is elementary (an arcsine), so MCC's OPS has a closed form too (the paper computes it
  as an "exact area" numerically). The level set is also handed to the quadrature
  engine, where it serves the other references (BetaErrors, BetterThanChance).
- Fowlkes-Mallows: x*(alpha) = (m + sqrt(m^2 + 4 m q alpha / p)) / 2, integrated in closed
  form.

- markedness: at fixed alpha the level set {MK = mu} is the root of a quadratic in the
  rate of predicted positives (:func:`markedness_level_set`); in that rate the OPS
  integral becomes a cubic, integrated exactly (:func:`_ops_markedness`), written so
  that it keeps float precision at prevalences down to 1e-12 (the quadrature it
  replaces took 40 s at pi = 1e-8 and over 15 minutes at 1e-9). The level set also
  serves the quadrature engine for the other references.

Closed forms are looked up by metric name *and* checked to belong to the built-in
function of that name, so that a user metric registered with ``overwrite=True`` under a
built-in name is never given the built-in's formula.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..metrics import BoundMetric
from ..metrics import _definitions as _d

__all__ = ["closed_form", "level_set", "CLOSED_FORMS", "LEVEL_SETS"]


# ---------------------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------------------


def _int_clip_linear(s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """int_0^1 clip(s x - t, 0, 1) dx, elementwise, without cancellation.

    On the sub-interval [l, r] where 0 < s x - t < 1 the integral of the linear function
    is (r - l) times its value at the midpoint; where s x - t >= 1 it is the length.
    """
    s, t = np.broadcast_arrays(np.asarray(s, float), np.asarray(t, float))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        z0 = t / s  # where s x - t = 0
        z1 = (1.0 + t) / s  # where s x - t = 1
    pos = s > 0
    neg = s < 0
    lo = np.where(pos, z0, z1)
    hi = np.where(pos, z1, z0)
    lo_c = np.clip(np.where(np.isnan(lo), 0.0, lo), 0.0, 1.0)
    hi_c = np.clip(np.where(np.isnan(hi), 0.0, hi), 0.0, 1.0)
    with np.errstate(invalid="ignore", over="ignore"):
        middle = np.where(hi_c > lo_c, (hi_c - lo_c) * (s * (hi_c + lo_c) / 2 - t), 0.0)
    top = np.where(pos, 1.0 - hi_c, lo_c)  # length where s x - t >= 1
    out = np.where(pos | neg, middle + top, np.clip(-t, 0.0, 1.0))
    return out


def _pr_linear_lt(ca, cb, d) -> np.ndarray:
    """Pr{ ca A + cb B < d } for A, B iid U[0, 1], any real ca, cb (vectorized).

    With W = ca A + cb B, replace a negative coefficient c by |c| (1 - U) + c, so that
    W = |ca| A' + |cb| B' + m with m = min(ca, 0) + min(cb, 0); then with u <= v the
    ordered |coefficients|, Pr{u A' + v B' < w} = int_0^1 clip((w - u a) / v, 0, 1) da.
    """
    ca, cb, d = np.broadcast_arrays(*(np.asarray(z, float) for z in (ca, cb, d)))
    m = np.minimum(ca, 0.0) + np.minimum(cb, 0.0)
    w = d - m
    u = np.minimum(np.abs(ca), np.abs(cb))
    v = np.maximum(np.abs(ca), np.abs(cb))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = _int_clip_linear(-u / v, -w / v)
    # Both coefficients zero: W = 0 is a constant.
    return np.where(v > 0, out, (w > 0).astype(float))


# ---------------------------------------------------------------------------------------
# OPS closed forms, f(pi, mu, **params) -> OPS (strict ties; {M = mu} has measure 0)
# ---------------------------------------------------------------------------------------


def _ops_recall(p, mu):
    return np.clip(mu, 0.0, 1.0)


def _ops_fpr(p, mu):
    return np.clip(1.0 - mu, 0.0, 1.0)


def _ops_informedness(p, mu):
    # Pr{1 - A - B < mu} = Pr{A + B > 1 - mu}, A + B triangular on [0, 2].
    return _pr_linear_lt(-1.0, -1.0, mu - 1.0)


def _ops_balanced_accuracy(p, mu):
    return _ops_informedness(p, 2.0 * mu - 1.0)


def _ops_accuracy(p, mu):
    # accuracy = 1 - (q A + p B)
    return _pr_linear_lt(-(1.0 - p), -p, mu - 1.0)


def _ops_error_rate(p, mu):
    # Pr{q A + p B > mu}
    return _pr_linear_lt(-(1.0 - p), -p, -mu)


def _ops_precision(p, mu):
    # p (1 - B) < mu (p (1 - B) + q A)  <=>  -mu q A - p (1 - mu) B < -p (1 - mu)
    q = 1.0 - p
    mu = np.clip(mu, 0.0, 1.0)
    return _pr_linear_lt(-mu * q, -p * (1.0 - mu), -p * (1.0 - mu))


def _ops_fdr(p, mu):
    return _ops_precision(p, 1.0 - mu)


def _ops_npv(p, mu):
    # npv is precision with the classes exchanged: (pi, alpha, beta) -> (1 - pi, beta, alpha)
    return _ops_precision(1.0 - p, mu)


def _ops_false_omission_rate(p, mu):
    return _ops_npv(p, 1.0 - mu)


def _ops_lift(p, mu):
    # lift = precision / pi (docs/method.md#outperformance-score: OPS is invariant under
    # this rescaling)
    with np.errstate(invalid="ignore", over="ignore"):
        return _ops_precision(p, np.minimum(mu * p, 1.0))


def _ops_fbeta(p, mu, beta=1.0):
    # With w = b2 / (1 + b2) (the registry's weights, finite for every beta):
    # p x < mu (p x + w p (1 - x) + (1 - w) q A), x = 1 - B:
    # -mu (1 - w) q A + c x < mu w p, with c = p (1 - mu + mu w)
    q = 1.0 - p
    w, w_fp = _d._fbeta_weight(beta)
    c = p * (1.0 - mu * w_fp)
    # substitute x = 1 - B: c - c B - mu (1 - w) q A < mu w p
    return _pr_linear_lt(-mu * w_fp * q, -c, mu * w * p - c)


def _ops_f1(p, mu):
    """Paper eq. (7) (docs/method.md#uniform-reference), kept in the paper's own form."""
    p = np.asarray(p, float)
    mu = np.asarray(mu, float)
    c = 2 * p / (1 + p)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = (1 + p) * mu / (2 * p * (2 - mu))
        second = ((1 + p) * mu - 2 * p) ** 2 / (2 * p * (1 - p) * mu * (2 - mu))
    return np.clip(np.where(mu <= c, first, first - second), 0.0, 1.0)


def _ops_jaccard(p, mu):
    # p x < mu (p + q A)  <=>  c - c B - mu q A < mu p with c = p
    q = 1.0 - p
    return _pr_linear_lt(-mu * q, -p, mu * p - p)


def _ops_cohen_kappa(p, mu):
    # kappa = 2 p q (x - A) / (p + (q - p)(p x + q A)), denominator > 0:
    # 2pq x - 2pq A - mu p - mu (q - p) p x - mu (q - p) q A < 0, then x = 1 - B.
    q = 1.0 - p
    cx = 2 * p * q - mu * (q - p) * p
    ca = -2 * p * q - mu * (q - p) * q
    # cx (1 - B) + ca A < mu p  <=>  ca A - cx B < mu p - cx
    return _pr_linear_lt(ca, -cx, mu * p - cx)


def _ops_lr_plus(p, mu):
    # (1 - B) / A < mu  <=>  -mu A - B < -1   (mu = inf: every finite value is below)
    mu = np.asarray(mu, float)
    fin = np.where(np.isfinite(mu), mu, 0.0)
    return np.where(np.isinf(mu), 1.0, _pr_linear_lt(-fin, -1.0, -1.0))


def _ops_lr_minus(p, mu):
    # lower is better: Pr{B / (1 - A) > mu} = Pr{mu (1 - A) - B < 0} = Pr{-mu A - B < -mu}
    mu = np.asarray(mu, float)
    fin = np.where(np.isfinite(mu), mu, 0.0)
    return np.where(np.isinf(mu), 0.0, _pr_linear_lt(-fin, -1.0, -fin))


def _ops_prevalence_threshold(p, mu):
    # lower is better: sqrt(A) / (sqrt(1 - B) + sqrt(A)) > mu
    #   <=>  (1 - mu)^2 A > mu^2 (1 - B)  <=>  -(1 - mu)^2 A - mu^2 B < -mu^2
    mu = np.clip(mu, 0.0, 1.0)
    return _pr_linear_lt(-((1.0 - mu) ** 2), -(mu**2), -(mu**2))


def _ops_g_mean(p, mu):
    # sqrt(X Y) < mu for X, Y iid U[0, 1]: Pr{X Y < m} = m (1 - ln m), m = mu^2
    m = np.clip(np.asarray(mu, float), 0.0, 1.0) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        out = m * (1.0 - np.log(m))
    return np.clip(np.where(m > 0, out, 0.0), 0.0, 1.0)


def _ops_dor(p, mu):
    # Pr{ x (1 - a) < mu a (1 - x) } = 1 - int_0^1 x / (mu + (1 - mu) x) dx
    #   = 1 - 1/d - mu ln(mu) / d^2,  d = 1 - mu.
    # Near mu = 1 this cancels; there int_0^1 x / (1 - d (1 - x)) dx is summed as a
    # series in d: sum_k d^k int_0^1 x (1 - x)^k dx = sum_k d^k / ((k + 1)(k + 2)).
    mu = np.asarray(mu, float)
    d = 1.0 - mu
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        direct = 1.0 - 1.0 / d - mu * np.log(mu) / d**2
        k = np.arange(40.0)
        series = 1.0 - np.sum(
            np.power.outer(np.where(np.abs(d) < 0.05, d, 0.0), k) / ((k + 1) * (k + 2)), axis=-1
        )
    out = np.where(np.abs(d) < 0.05, series, direct)
    out = np.where(mu <= 0, 0.0, np.where(np.isinf(mu), 1.0, out))
    return np.clip(out, 0.0, 1.0)


def _mcc_x_star(p, alpha, mu):
    """The level set {MCC = mu} as x = 1 - beta in terms of alpha (see mcc_level_set)."""
    q = 1.0 - p
    m = mu * mu
    return (2 * q * alpha * (1 - m) + m + mu * np.sqrt(m + (4 * q / p) * alpha * (1 - alpha))) / (
        2 * (q + m * p)
    )


def _ops_mcc(p, mu):
    # {MCC < mu} = {x < x*(alpha)} with x*(alpha) non-decreasing (mcc_level_set), so
    # OPS = int_0^1 clip(x*(alpha), 0, 1) d alpha. x* reaches 1 at
    # alpha_hi = 1 - m / (p + m q) (mu >= 0) and leaves 0 at alpha_lo = m / (p + m q)
    # (mu < 0). Its antiderivative is elementary: with k = 4q/p and t = alpha - 1/2,
    # m + k alpha (1 - alpha) = k (R^2 - t^2), R^2 = 1/4 + m / k, and
    # int sqrt(R^2 - t^2) dt = (t sqrt(R^2 - t^2) + R^2 arcsin(t / R)) / 2.
    q = 1.0 - p
    mu = np.clip(np.asarray(mu, float), -1.0, 1.0)
    m = mu * mu
    k = 4 * q / p
    r2 = 0.25 + m / k
    r = np.sqrt(r2)

    def anti(a):
        t = a - 0.5
        s = 0.5 * (t * np.sqrt(np.maximum(r2 - t * t, 0.0)) + r2 * np.arcsin(np.clip(t / r, -1, 1)))
        return (q * (1 - m) * a * a + m * a + mu * np.sqrt(k) * s) / (2 * (q + m * p))

    edge = m / (p + m * q)
    pos = anti(1.0 - edge) - anti(0.0) + edge
    neg = anti(1.0) - anti(edge)
    return np.clip(np.where(mu >= 0, pos, neg), 0.0, 1.0)


def _ops_fowlkes_mallows(p, mu):
    # FM = sqrt(p) x / sqrt(p x + q alpha) < mu  <=>  x < x*(alpha) with
    # x* = (m + sqrt(m^2 + c alpha)) / 2, m = mu^2, c = 4 m q / p (the positive root of
    # p x^2 = m (p x + q alpha)); x* = 1 at alpha_1 = p (1 - m) / (m q). With A = min(alpha_1, 1),
    # OPS = int_0^A x* + (1 - A), and int_0^A sqrt(m^2 + c a) da = (2 / (3c)) (X^1.5 - Y^1.5),
    # X = m^2 + c A, Y = m^2, written without the cancellation as
    # (2 A / 3) (X + sqrt(X Y) + Y) / (sqrt(X) + sqrt(Y)).
    q = 1.0 - p
    mu = np.clip(np.asarray(mu, float), 0.0, 1.0)
    m = mu * mu
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a_end = np.minimum(p * (1 - m) / (m * q), 1.0)
        big_x = m * m + 4 * m * q / p * a_end
        big_y = m * m
        root_part = (
            (a_end / 3)
            * (big_x + np.sqrt(big_x * big_y) + big_y)
            / (np.sqrt(big_x) + np.sqrt(big_y))
        )
        out = m * a_end / 2 + root_part + (1 - a_end)
    return np.clip(np.where(m > 0, out, 0.0), 0.0, 1.0)


def _mk_w(p, mu, a):
    """w(a) = 2 r*(a): twice the rate of predicted positives r = p x + q a on the level
    set {markedness = mu} at alpha = a (the root in (0, 1) of
    q (r - a) = mu r (1 - r)), written without cancellation:
    w = 4 q a / (u + k) for k >= 0 and (u - k) / mu for k < 0, with k = q - mu and
    u = sqrt(k^2 + 4 mu q a)."""
    q = 1.0 - p
    k = q - mu
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.sqrt(np.maximum(k * k + 4.0 * mu * q * a, 0.0))
        return np.where(k >= 0, 4.0 * q * a / (u + k), (u - k) / mu)


def markedness_level_set(p, alpha, mu):
    """beta* with {beta in [0, 1] : markedness(p, alpha, beta) < mu} = (beta*, 1].

    With x = 1 - beta and r = p x + q alpha, markedness = PPV + NPV - 1 =
    q (r - alpha) / (r (1 - r)), increasing in r (its derivative has the numerator
    (r - alpha)^2 + alpha (1 - alpha) >= 0), hence in x. On the level set, with
    w = 2 r* (:func:`_mk_w`), x* = (2p + mu (2 - w)) w / (4p): no difference of nearly
    equal numbers even at p = 1e-12, where r* - q alpha, the naive numerator, keeps no
    digits. Returned as 1 - x*, clipped to [0, 1].
    """
    w = _mk_w(p, mu, alpha)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x_star = (2.0 + (mu / p) * (2.0 - w)) * w / 4.0
    return np.clip(1.0 - np.where(np.isfinite(x_star), x_star, 1.0), 0.0, 1.0)


def _ops_markedness(p, mu):
    # {MK < mu} = {x < x*(alpha)} (markedness_level_set), so OPS = int_0^1 clip(x*, 0, 1).
    # Substituting w = 2 r*(alpha) (alpha = w (2k + mu w) / (4q), d alpha = (k + mu w) /
    # (2q) dw) turns x* d alpha into the cubic (2p + mu (2 - w)) w (k + mu w) dw / (8pq),
    # integrated exactly by the 2-point Gauss-Legendre rule. x* leaves [0, 1] where the
    # level set meets alpha = 0 or 1 or the edges x = 0, 1: in w the limits are
    # [2 max(0, mu - q) / mu, 2 min(p, mu) / mu] for mu > 0, where x* >= 1 (the whole
    # column counts) on alpha > a1 = p (1 - mu) / (mu q), a share (mu - p)^+ / (mu q);
    # and [2 max(0, |mu| - p) / |mu|, 2 min(q, |mu|) / |mu|] for mu < 0. mu = 0 is the
    # limit of both (w from 0 to 2, x* = alpha, OPS 1/2). No step subtracts nearly equal
    # numbers, so the OPS keeps float precision at any prevalence (checked against
    # 50-digit arithmetic down to pi = 1e-12 in tests/test_uniform_reference.py).
    p, mu = np.broadcast_arrays(np.asarray(p, float), np.clip(np.asarray(mu, float), -1.0, 1.0))
    q = 1.0 - p
    m = np.abs(mu)
    pos = mu > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        lo_num = np.where(pos, np.maximum(0.0, mu - q), np.maximum(0.0, m - p))
        hi_num = np.where(pos, np.minimum(p, mu), np.minimum(q, m))
        w_lo = np.where(m > 0, 2.0 * lo_num / m, 0.0)
        half = np.where(m > 0, (hi_num - lo_num) / m, 1.0)  # (w_hi - w_lo) / 2
        half = np.maximum(half, 0.0)
        flat = np.where(pos, np.maximum(0.0, mu - p) / (mu * q), 0.0)
        total = np.zeros(p.shape)
        for t in (1.0 - 1.0 / np.sqrt(3.0), 1.0 + 1.0 / np.sqrt(3.0)):
            w = w_lo + half * t
            total += (2.0 + (mu / p) * (2.0 - w)) * w * (q - mu + mu * w)
        out = half * total / (8.0 * q) + flat
    return np.clip(out, 0.0, 1.0)


#: name -> (the built-in metric function it belongs to, OPS(pi, mu, **params))
CLOSED_FORMS: dict[str, tuple[Callable, Callable]] = {
    "recall": (_d._tpr, _ops_recall),
    "specificity": (_d._tnr, _ops_recall),
    "fpr": (_d._fpr, _ops_fpr),
    "fnr": (_d._fnr, _ops_fpr),
    "precision": (_d._ppv, _ops_precision),
    "npv": (_d._npv, _ops_npv),
    "fdr": (_d._fdr, _ops_fdr),
    "false_omission_rate": (_d._for, _ops_false_omission_rate),
    "accuracy": (_d._accuracy, _ops_accuracy),
    "error_rate": (_d._error_rate, _ops_error_rate),
    "balanced_accuracy": (_d._balanced_accuracy, _ops_balanced_accuracy),
    "informedness": (_d._informedness, _ops_informedness),
    "f1": (_d._f1, _ops_f1),
    "fbeta": (_d._fbeta, _ops_fbeta),
    "cohen_kappa": (_d._cohen_kappa, _ops_cohen_kappa),
    "g_mean": (_d._g_mean, _ops_g_mean),
    "jaccard": (_d._jaccard, _ops_jaccard),
    "diagnostic_odds_ratio": (_d._dor, _ops_dor),
    "lr_plus": (_d._lr_plus, _ops_lr_plus),
    "lr_minus": (_d._lr_minus, _ops_lr_minus),
    "lift": (_d._lift, _ops_lift),
    "prevalence_threshold": (_d._prevalence_threshold, _ops_prevalence_threshold),
    "mcc": (_d._mcc, _ops_mcc),
    "fowlkes_mallows": (_d._fowlkes_mallows, _ops_fowlkes_mallows),
    "markedness": (_d._markedness, _ops_markedness),
}


# ---------------------------------------------------------------------------------------
# Closed-form level sets beta*(alpha; mu, pi) for the quadrature engine
# ---------------------------------------------------------------------------------------


def mcc_level_set(p: float, alpha: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """beta* with {beta in [0, 1] : MCC(p, alpha, beta) < mu} = (beta*, 1].

    With x = 1 - beta and r = p x + q alpha (the rate of predicted positives),
    MCC = sqrt(pq) (x - alpha) / sqrt(r (1 - r)), increasing in x. Squaring MCC = mu,
    pq (x - alpha)^2 = mu^2 r (1 - r), gives a quadratic in x whose discriminant
    simplifies to 4 m (m + (4q/p) alpha (1 - alpha)) with m = mu^2; the sign of mu picks
    the root (x > alpha for mu > 0):

        x*(alpha) = (2 q alpha (1 - m) + m + mu sqrt(m + (4q/p) alpha (1 - alpha)))
                    / (2 (q + m p)).

    Returned as 1 - x*, clipped to [0, 1] (0: MCC < mu for every beta; 1: for none).
    This is valid for every reference (it describes the metric, not the reference),
    so it also speeds up BetaErrors and BetterThanChance.
    """
    return np.clip(1.0 - _mcc_x_star(p, alpha, mu), 0.0, 1.0)


#: name -> (built-in function, level_set(pi, alpha, mu) -> beta*)
LEVEL_SETS: dict[str, tuple[Callable, Callable]] = {
    "mcc": (_d._mcc, mcc_level_set),
    "markedness": (_d._markedness, markedness_level_set),
}


def _lookup(table: dict[str, tuple[Callable, Callable]], metric: BoundMetric):
    entry = table.get(metric.name)
    if entry is None or entry[0] is not metric.metric.func:
        return None
    return entry[1]


def closed_form(metric: BoundMetric) -> Callable | None:
    """The closed-form uniform OPS ``f(pi, mu)`` of a built-in metric, or None."""
    f = _lookup(CLOSED_FORMS, metric)
    if f is None:
        return None
    params = metric.params
    return (lambda p, mu: f(p, mu, **params)) if params else f


def level_set(metric: BoundMetric) -> Callable | None:
    """The closed-form boundary ``beta*(pi, alpha, mu)`` of a built-in metric, or None."""
    return _lookup(LEVEL_SETS, metric)

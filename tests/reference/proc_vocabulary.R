#!/usr/bin/env Rscript
# pROC reference values for the wider ROC vocabulary: partial AUC (McClish
# correction, bootstrap CI and variance), multiclass.roc (Hand & Till), coords
# (best thresholds with weights, ties, input specificity/sensitivity,
# thresholds), smooth(method="binormal") and ci.se / ci.sp / ci.thresholds /
# ci.coords.
#
# Run from the repository root (after make_datasets.py, make_multiclass.py and
# proc_compare.R, which writes data_compare/aSAH.csv):
#
#     Rscript tests/reference/proc_vocabulary.R
#
# Writes tests/reference/proc_vocabulary.csv and proc_vocabulary.meta.txt.

script_dir <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f) == 1) dirname(normalizePath(f)) else file.path("tests", "reference")
})
setwd(script_dir)
source("proc_common.R")
t_start <- proc.time()[["elapsed"]]
tick <- function(label) cat(sprintf("%-34s %6.1f s\n", label, proc.time()[["elapsed"]] - t_start))
if (!file.exists("data_compare/aSAH.csv")) stop("run proc_compare.R first (it writes data_compare/aSAH.csv)")

BOOT_N <- 2000
SEEDS <- 1:5

# Binary data sets: name -> setup building `d` and `r`.
setup_data <- function(file) {
  paste(sprintf('d <- read.csv("data/%s.csv")', file),
        'r <- roc(d$y_true, d$y_score, levels=c(0,1), direction="<", quiet=TRUE)', sep = "; ")
}
SETUP_ASAH <- paste('d <- read.csv("data_compare/aSAH.csv")',
                    'r <- roc(d$outcome, d$s100b, levels=c("Good","Poor"), direction="<", quiet=TRUE)', sep = "; ")
BINARY <- c(list(aSAH = SETUP_ASAH),
            setNames(lapply(c("small_ties", "medium", "imbalanced", "perfect", "weak"), setup_data),
                     c("small_ties", "medium", "imbalanced", "perfect", "weak")))
# Only aSAH needs a predictor name; the others have one score column.
pred_param <- function(ds) if (ds == "aSAH") "predictor=s100b" else "predictor=y_score"
prm <- function(ds, ...) {
  extra <- list(...)
  s <- pred_param(ds)
  if (length(extra)) s <- paste(s, paste(names(extra), unlist(extra), sep = "=", collapse = ";"), sep = ";")
  s
}

# ---------------------------------------------------------------------------
# 1. Partial AUC.
tick("partial AUC")
PAUCS <- list("c(1, 0.9)", "c(1, 0.8)", "c(0.9, 0.7)")
for (ds in names(BINARY)) {
  st <- BINARY[[ds]]
  env <- make_env(st)
  record(ds, st, "as.numeric(auc(r))", list(auc = ""), env = env, params = prm(ds))
  for (pa in PAUCS) for (focus in c("specificity", "sensitivity")) for (corr in c("FALSE", "TRUE")) {
    code <- sprintf('as.numeric(auc(r, partial.auc=%s, partial.auc.focus="%s", partial.auc.correct=%s))', pa, focus, corr)
    record(ds, st, code, list(pauc = ""), env = env,
           params = prm(ds, partial.auc = gsub(" ", "", pa), partial.auc.focus = focus, partial.auc.correct = corr))
  }
  # invalid correction allowed (the value pROC uses inside its bootstrap)
  code <- 'as.numeric(auc(r, partial.auc=c(1, 0.8), partial.auc.focus="specificity", partial.auc.correct=TRUE, allow.invalid.partial.auc.correct=TRUE))'
  record(ds, st, code, list(pauc = ""), env = env,
         params = prm(ds, partial.auc = "c(1,0.8)", partial.auc.focus = "specificity", partial.auc.correct = "TRUE",
                      allow.invalid.partial.auc.correct = "TRUE"))
}

# A curve below the diagonal (aSAH s100b with the wrong direction): the McClish
# correction is refused (NA + warning) unless allow.invalid.partial.auc.correct.
st <- paste('d <- read.csv("data_compare/aSAH.csv")',
            'r <- roc(d$outcome, d$s100b, levels=c("Good","Poor"), direction=">", quiet=TRUE)', sep = "; ")
env <- make_env(st)
record("aSAH", st, "as.numeric(auc(r))", list(auc = ""), env = env, params = "predictor=s100b;direction=>")
for (allow in c("FALSE", "TRUE")) for (corr in c("FALSE", "TRUE")) {
  if (corr == "FALSE" && allow == "TRUE") next
  code <- sprintf('as.numeric(auc(r, partial.auc=c(1, 0.8), partial.auc.focus="specificity", partial.auc.correct=%s, allow.invalid.partial.auc.correct=%s))', corr, allow)
  record("aSAH", st, code, list(pauc = ""), env = env,
         params = sprintf("predictor=s100b;direction=>;partial.auc=c(1,0.8);partial.auc.focus=specificity;partial.auc.correct=%s;allow.invalid.partial.auc.correct=%s", corr, allow))
}

# Variance and bootstrap CI of a partial AUC (built into the roc object `rp`).
tick("partial AUC var / ci")
for (ds in c("aSAH", "medium")) {
  for (spec in list(list("specificity", "FALSE"), list("specificity", "TRUE"), list("sensitivity", "FALSE"))) {
    st <- paste(BINARY[[ds]],
                sprintf('rp <- roc(r$response, r$predictor, levels=r$levels, direction="<", partial.auc=c(1, 0.8), partial.auc.focus="%s", partial.auc.correct=%s, quiet=TRUE)',
                        spec[[1]], spec[[2]]), sep = "; ")
    env <- make_env(st)
    pp <- prm(ds, partial.auc = "c(1,0.8)", partial.auc.focus = spec[[1]], partial.auc.correct = spec[[2]])
    record(ds, st, "as.numeric(rp$auc)", list(pauc = ""), env = env, params = paste0(pp, ";fun=roc"))
    for (m in c("delong", "obuchowski"))
      record(ds, st, sprintf('var(rp, method="%s")', m), list(var = ""), env = env, params = paste0(pp, ";fun=var;method=", m))
    record(ds, st, 'ci.auc(rp, method="delong")', list(ci_lower = "[1]"), env = env, params = paste0(pp, ";fun=ci.auc;method=delong"))
    for (seed in SEEDS) {
      code <- sprintf('set.seed(%d); var(rp, method="bootstrap", boot.n=%d, boot.stratified=TRUE, progress="none")', seed, BOOT_N)
      record(ds, st, code, list(var = ""), env = env, params = paste0(pp, ";fun=var;method=bootstrap;boot.n=", BOOT_N),
             monte_carlo = TRUE, seed = seed)
      code <- sprintf('set.seed(%d); ci.auc(rp, method="bootstrap", boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")', seed, BOOT_N)
      record(ds, st, code, list(ci_lower = "[1]", ci_median = "[2]", ci_upper = "[3]"), env = env,
             params = paste0(pp, ";fun=ci.auc;method=bootstrap;boot.n=", BOOT_N), conf_level = 0.95, monte_carlo = TRUE, seed = seed)
    }
  }
}

# ---------------------------------------------------------------------------
# 2. multiclass.roc (Hand & Till).
tick("multiclass")
for (mc in c("multiclass3", "multiclass4")) {
  k <- if (mc == "multiclass3") 3 else 4
  cols <- sprintf('"p_%d"', 0:(k - 1))
  st <- paste(sprintf('d <- read.csv("data_multiclass/%s.csv")', mc),
              sprintf('P <- as.matrix(d[, c(%s)])', paste(cols, collapse = ",")),
              sprintf('colnames(P) <- c(%s)', paste(sprintf('"%d"', 0:(k - 1)), collapse = ",")), sep = "; ")
  env <- make_env(st)
  # multivariate (probability matrix), default direction ">"
  code <- "multiclass.roc(d$y_true, P)"
  mr <- record(mc, st, code, list(auc = "$auc |> as.numeric()"), env = env, params = "form=multivariate;direction=>")
  for (pair in names(mr$rocs)) for (j in 1:2) {
    cls <- strsplit(pair, "/")[[1]]
    col <- cls[j]
    other <- cls[3 - j]
    add_row(mc, "pair_auc", as.numeric(auc(mr$rocs[[pair]][[j]])), st,
            sprintf('as.numeric(auc(%s$rocs[["%s"]][[%d]]))', code, pair, j),
            params = sprintf("form=multivariate;direction=>;pair=%s;column=p_%s;positive_class=%s;other_class=%s",
                             pair, col, col, other),
            note = sprintf("P(p_%s of a class-%s row > p_%s of a class-%s row), ties 1/2", col, col, col, other))
  }
  # univariate: one predictor, all pairs of levels
  for (pred in c("score", "p_0")) for (dirn in c("auto", "<")) {
    code <- sprintf('multiclass.roc(d$y_true, d$%s, direction="%s", quiet=TRUE)', pred, dirn)
    mu <- record(mc, st, code, list(auc = "$auc |> as.numeric()"), env = env,
                 params = sprintf("form=univariate;predictor=%s;direction=%s", pred, dirn))
    for (i in seq_along(mu$rocs)) {
      ro <- mu$rocs[[i]]
      pair <- paste(ro$levels, collapse = "/")
      pp <- sprintf("form=univariate;predictor=%s;direction=%s;pair=%s;control=%s;case=%s",
                    pred, dirn, pair, ro$levels[1], ro$levels[2])
      add_row(mc, "pair_auc", as.numeric(auc(ro)), st, sprintf("as.numeric(auc(%s$rocs[[%d]]))", code, i), params = pp)
      add_row(mc, "pair_direction_lt", as.numeric(ro$direction == "<"), st,
              sprintf('as.numeric(%s$rocs[[%d]]$direction == "<")', code, i), params = pp,
              note = "1 if the pair's roc used direction \"<\" (case scores higher), 0 for \">\"")
    }
  }
}

# ---------------------------------------------------------------------------
# 3. coords.
tick("coords")
ALL_RET <- c("threshold", "specificity", "sensitivity", "accuracy", "tn", "tp", "fn", "fp", "npv", "ppv",
             "fdr", "fpr", "tpr", "tnr", "fnr", "precision", "recall", "youden", "closest.topleft")
add_frame <- function(ds, st, code, res, base_params, cols, note = "") {
  add_row(ds, "n_rows", nrow(res), st, sprintf("nrow(%s)", code), params = base_params, note = note)
  for (i in seq_len(nrow(res))) for (cn in cols) {
    v <- res[i, cn]
    nt <- note
    if (is.na(v) && cn == "threshold") nt <- paste(c(note, "threshold NA: the point was interpolated"), collapse = "")
    add_row(ds, cn, v, st, sprintf('%s[%d, "%s"]', code, i, cn),
            params = paste0(base_params, ";row=", i), note = nt)
  }
}
for (ds in names(BINARY)) {
  st <- BINARY[[ds]]
  env <- make_env(st)
  # best thresholds, every tied row, every coordinate
  for (bm in c("youden", "closest.topleft")) for (bw in c("c(1, 0.5)", "c(2, 0.2)")) {
    code <- sprintf('coords(r, x="best", best.method="%s", best.weights=%s, ret="all", transpose=FALSE)', bm, bw)
    res <- run_code(code, env)
    add_frame(ds, st, code, res$value, prm(ds, x = "best", best.method = bm, best.weights = gsub(" ", "", bw)),
              ALL_RET, note_of(res))
  }
  # input specificity / sensitivity (exact points and interpolation)
  for (inp in c("specificity", "sensitivity")) for (x in c(0, 0.1, 0.5, 0.9, 1)) {
    code <- sprintf('coords(r, x=%s, input="%s", ret=c("threshold","specificity","sensitivity"), transpose=FALSE)', x, inp)
    res <- run_code(code, env)
    if (!is.null(res$error)) { add_row(ds, "error", NA, st, code, params = prm(ds, input = inp, x = x), note = note_of(res)); next }
    for (cn in c("threshold", "specificity", "sensitivity")) {
      v <- res$value[1, cn]
      add_row(ds, cn, v, st, sprintf('%s[1, "%s"]', code, cn), params = prm(ds, input = inp, x = x),
              note = paste(c(note_of(res), if (is.na(v)) "threshold NA: the point was interpolated")[
                nzchar(c(note_of(res), if (is.na(v)) "threshold NA: the point was interpolated"))], collapse = " | "))
    }
  }
  # input threshold at data values (>= semantics) and between them
  u <- sort(unique(env$r$predictor))
  xs <- unique(c(u[ceiling(length(u) * c(0.25, 0.5, 0.75))], (u[1] + u[2]) / 2, -Inf, Inf))
  for (x in xs) {
    xt <- if (is.infinite(x)) (if (x > 0) "Inf" else "-Inf") else sprintf("%.17g", x)
    code <- sprintf('coords(r, x=%s, input="threshold", ret=c("threshold","specificity","sensitivity","tn","tp","fn","fp"), transpose=FALSE)', xt)
    res <- run_code(code, env)
    for (cn in c("specificity", "sensitivity", "tn", "tp", "fn", "fp"))
      add_row(ds, cn, res$value[1, cn], st, sprintf('%s[1, "%s"]', code, cn), params = prm(ds, input = "threshold", x = xt),
              note = note_of(res))
  }
}
# the whole curve and the local maxima of aSAH s100b
env <- make_env(SETUP_ASAH)
for (xx in c("all", "local maximas")) {
  code <- sprintf('coords(r, x="%s", ret=c("threshold","specificity","sensitivity"), transpose=FALSE)', xx)
  res <- run_code(code, env)
  add_frame("aSAH", SETUP_ASAH, code, res$value, prm("aSAH", x = gsub(" ", "_", xx)),
            c("threshold", "specificity", "sensitivity"), note_of(res))
}

# ---------------------------------------------------------------------------
# 4. smooth(method="binormal").
tick("smooth")
SMOOTH_SETS <- list(aSAH = SETUP_ASAH,
                    aSAH_wfns = paste('d <- read.csv("data_compare/aSAH.csv")',
                                      'r <- roc(d$outcome, d$wfns, levels=c("Good","Poor"), direction="<", quiet=TRUE)', sep = "; "),
                    medium = BINARY$medium, weak = BINARY$weak, small_ties = BINARY$small_ties,
                    perfect = BINARY$perfect)
for (nm in names(SMOOTH_SETS)) {
  ds <- if (nm == "aSAH_wfns") "aSAH" else nm
  pr <- if (nm == "aSAH_wfns") "predictor=wfns" else pred_param(ds)
  st <- paste(SMOOTH_SETS[[nm]], 's <- smooth(r, method="binormal")', sep = "; ")
  env <- tryCatch(make_env(st), error = function(e) e)
  if (inherits(env, "error")) {
    add_row(ds, "error", NA, SMOOTH_SETS[[nm]], 's <- smooth(r, method="binormal")', params = paste0(pr, ";method=binormal"),
            note = paste("error:", conditionMessage(env)))
    next
  }
  pp <- paste0(pr, ";method=binormal;n=512")
  record(ds, st, "as.numeric(auc(s))", list(auc = ""), env = env, params = pp)
  record(ds, st, "coef(s$model)", list(coef_intercept = "[[1]]", coef_slope = "[[2]]"), env = env, params = pp,
         note = "lm(qnorm(sp) ~ qnorm(se)) over the empirical ROC points with finite probits")
  record(ds, st, "nrow(s$model$model)", list(n_fit_points = ""), env = env, params = pp)
  record(ds, st, 'as.numeric(auc(s, partial.auc=c(1, 0.8), partial.auc.focus="specificity"))', list(pauc = ""), env = env,
         params = paste0(pp, ";partial.auc=c(1,0.8);partial.auc.focus=specificity"))
  for (x in c(0.1, 0.5, 0.9)) {
    record(ds, st, sprintf('coords(s, x=%s, input="specificity", ret="sensitivity", transpose=FALSE)', x),
           list(sensitivity = '[1, "sensitivity"]'), env = env, params = paste0(pp, ";input=specificity;x=", x))
    record(ds, st, sprintf('coords(s, x=%s, input="sensitivity", ret="specificity", transpose=FALSE)', x),
           list(specificity = '[1, "specificity"]'), env = env, params = paste0(pp, ";input=sensitivity;x=", x))
  }
  code <- 'coords(s, x="best", best.method="youden", ret=c("specificity","sensitivity"), transpose=FALSE)'
  record(ds, st, code, list(specificity = '[1, "specificity"]', sensitivity = '[1, "sensitivity"]'), env = env,
         params = paste0(pp, ";x=best;best.method=youden"))
}

# ---------------------------------------------------------------------------
# 5. ci.se / ci.sp / ci.thresholds / ci.coords (bootstrap, Monte Carlo).
tick("ci.*")
Q <- list(lower = 1, median = 2, upper = 3)
for (ds in c("aSAH", "medium")) {
  st <- BINARY[[ds]]
  env <- make_env(st)
  for (seed in SEEDS) {
    mc <- function(code, fields, params, note = "")
      record(ds, st, code, fields, env = env, params = params, conf_level = 0.95, monte_carlo = TRUE, seed = seed, note = note)
    code <- sprintf('set.seed(%d); ci.se(r, specificities=c(0.5, 0.9), boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")', seed, BOOT_N)
    for (i in 1:2) mc(code, setNames(lapply(Q, function(j) sprintf("[%d, %d]", i, j)), paste0("se_", names(Q))),
                      prm(ds, fun = "ci.se", specificity = c(0.5, 0.9)[i], boot.n = BOOT_N))
    code <- sprintf('set.seed(%d); ci.sp(r, sensitivities=c(0.5, 0.9), boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")', seed, BOOT_N)
    for (i in 1:2) mc(code, setNames(lapply(Q, function(j) sprintf("[%d, %d]", i, j)), paste0("sp_", names(Q))),
                      prm(ds, fun = "ci.sp", sensitivity = c(0.5, 0.9)[i], boot.n = BOOT_N))
    if (ds != "aSAH") next
    # ci.thresholds at the best (Youden) threshold of the full-sample curve, and at given thresholds
    code <- sprintf('set.seed(%d); ci.thresholds(r, thresholds="best", boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")', seed, BOOT_N)
    mc(code, c(list(threshold = '|> attr("thresholds") |> as.numeric()'),
               setNames(lapply(Q, function(j) sprintf('$specificity[1, %d]', j)), paste0("sp_", names(Q))),
               setNames(lapply(Q, function(j) sprintf('$sensitivity[1, %d]', j)), paste0("se_", names(Q)))),
       prm(ds, fun = "ci.thresholds", thresholds = "best", boot.n = BOOT_N))
    ths <- c(0.1, 0.2, 0.3, 0.5)
    code <- sprintf('set.seed(%d); ci.thresholds(r, thresholds=c(0.1, 0.2, 0.3, 0.5), boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")', seed, BOOT_N)
    for (i in seq_along(ths))
      mc(code, c(setNames(lapply(Q, function(j) sprintf('$specificity[%d, %d]', i, j)), paste0("sp_", names(Q))),
                 setNames(lapply(Q, function(j) sprintf('$sensitivity[%d, %d]', i, j)), paste0("se_", names(Q)))),
         prm(ds, fun = "ci.thresholds", threshold = ths[i], boot.n = BOOT_N))
    # ci.coords at "best": the best threshold is re-chosen in every resample
    for (pol in c("stop", "omit", "random")) {
      code <- sprintf('set.seed(%d); ci.coords(r, x="best", input="threshold", ret=c("threshold","specificity","sensitivity"), best.method="youden", best.policy="%s", boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")',
                      seed, pol, BOOT_N)
      fields <- list()
      for (cn in c("threshold", "specificity", "sensitivity")) for (qn in names(Q))
        fields[[paste0(cn, "_", qn)]] <- sprintf('$%s[1, %d]', cn, Q[[qn]])
      mc(code, fields, prm(ds, fun = "ci.coords", x = "best", best.method = "youden", best.policy = pol, boot.n = BOOT_N))
    }
    # ci.coords at given specificities (draws the same resamples as ci.se)
    code <- sprintf('set.seed(%d); ci.coords(r, x=c(0.5, 0.9), input="specificity", ret="sensitivity", boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")', seed, BOOT_N)
    for (i in 1:2) mc(code, setNames(lapply(Q, function(j) sprintf('$sensitivity[%d, %d]', i, j)), paste0("se_", names(Q))),
                      prm(ds, fun = "ci.coords", input = "specificity", x = c(0.5, 0.9)[i], boot.n = BOOT_N))
  }
}

# ci.coords at "best" where resamples often tie for the best threshold (weak):
# best.policy="stop" aborts, "omit" drops those resamples, "random" draws one.
st <- BINARY$weak
env <- make_env(st)
for (seed in SEEDS) for (pol in c("stop", "omit", "random")) {
  code <- sprintf('set.seed(%d); ci.coords(r, x="best", input="threshold", ret=c("threshold","specificity","sensitivity"), best.method="youden", best.policy="%s", boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")',
                  seed, pol, BOOT_N)
  fields <- list()
  for (cn in c("threshold", "specificity", "sensitivity")) for (qn in names(Q))
    fields[[paste0(cn, "_", qn)]] <- sprintf('$%s[1, %d]', cn, Q[[qn]])
  record("weak", st, code, fields, env = env, conf_level = 0.95, monte_carlo = TRUE, seed = seed,
         params = prm("weak", fun = "ci.coords", x = "best", best.method = "youden", best.policy = pol, boot.n = BOOT_N))
}

# ---------------------------------------------------------------------------
n <- write_ref("proc_vocabulary.csv")
elapsed <- proc.time()[["elapsed"]] - t_start
inputs <- c(file.path("data", sort(list.files("data", pattern = "\\.csv$"))),
            "data_compare/aSAH.csv",
            file.path("data_multiclass", sort(list.files("data_multiclass", pattern = "\\.csv$"))))
write_meta("proc_vocabulary.meta.txt", inputs, c(
  sprintf("bootstrap: set.seed(s) immediately before each call (s = %s), boot.n=%d, stratified",
          paste(SEEDS, collapse = ","), BOOT_N),
  sprintf("rows: %d; elapsed: %.0f s", n, elapsed)))
cat(sprintf("wrote proc_vocabulary.csv (%d rows) and proc_vocabulary.meta.txt in %.0f s\n", n, elapsed))

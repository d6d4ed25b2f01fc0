#!/usr/bin/env Rscript
# pROC reference values for comparing classifiers: roc.test (DeLong paired and
# unpaired, bootstrap, Venkatraman, sensitivity/specificity tests, partial
# AUC), var/cov of correlated AUCs, and power.roc.test.
#
# Run from the repository root (after python tests/reference/make_paired.py):
#
#     Rscript tests/reference/proc_compare.R
#
# Writes tests/reference/data_compare/aSAH.csv (pROC's bundled data set),
# tests/reference/proc_compare.csv (one tidy row per value) and
# tests/reference/proc_compare.meta.txt (versions, date, RNG, input md5s).
# Needs R with the pROC package (Debian: r-base-core r-cran-proc).

script_dir <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f) == 1) dirname(normalizePath(f)) else file.path("tests", "reference")
})
setwd(script_dir)
source("proc_common.R")
t_start <- proc.time()[["elapsed"]]

BOOT_N <- 2000
SEEDS <- 1:5
ALTS <- c("two.sided", "greater", "less")
LEVELS <- c(0.95, 0.90)

# ---------------------------------------------------------------------------
# aSAH: export pROC's bundled data and check that the CSV round-trips.
data(aSAH, package = "pROC")
asah <- data.frame(outcome = as.character(aSAH$outcome),
                   gender = as.character(aSAH$gender),
                   age = aSAH$age,
                   wfns = as.integer(as.character(aSAH$wfns)),
                   s100b = aSAH$s100b, ndka = aSAH$ndka,
                   stringsAsFactors = FALSE)
write.csv(asah, "data_compare/aSAH.csv", row.names = FALSE, quote = FALSE)
back <- read.csv("data_compare/aSAH.csv", stringsAsFactors = FALSE)
stopifnot(identical(back$s100b, aSAH$s100b), identical(back$ndka, aSAH$ndka),
          identical(back$age, aSAH$age), identical(back$outcome, asah$outcome),
          identical(back$wfns, asah$wfns))
# The integer wfns gives the same ROC as pROC's ordered factor.
stopifnot(isTRUE(all.equal(
  as.numeric(auc(roc(aSAH$outcome, aSAH$wfns, levels = c("Good", "Poor"), direction = "<", quiet = TRUE))),
  as.numeric(auc(roc(back$outcome, back$wfns, levels = c("Good", "Poor"), direction = "<", quiet = TRUE))),
  tolerance = 0)))

# ---------------------------------------------------------------------------
# Setups (R code building d, r1, r2).
roc_asah <- function(var, name) {
  sprintf('%s <- roc(d$outcome, d$%s, levels=c("Good","Poor"), direction="<", quiet=TRUE)', name, var)
}
setup_asah <- function(a, b) {
  paste('d <- read.csv("data_compare/aSAH.csv")', roc_asah(a, "r1"), roc_asah(b, "r2"), sep = "; ")
}
setup_paired <- function(file) {
  paste(sprintf('d <- read.csv("data_compare/%s.csv")', file),
        'r1 <- roc(d$y_true, d$score_a, levels=c(0,1), direction="<", quiet=TRUE)',
        'r2 <- roc(d$y_true, d$score_b, levels=c(0,1), direction="<", quiet=TRUE)', sep = "; ")
}
SETUP_UNPAIRED <- paste('d <- read.csv("data_compare/unpaired.csv")',
                        'da <- d[d$set == "a", ]', 'db <- d[d$set == "b", ]',
                        'r1 <- roc(da$y_true, da$y_score, levels=c(0,1), direction="<", quiet=TRUE)',
                        'r2 <- roc(db$y_true, db$y_score, levels=c(0,1), direction="<", quiet=TRUE)', sep = "; ")
SETUP_ASAH_FIRST100 <- paste('d <- read.csv("data_compare/aSAH.csv")', roc_asah("s100b", "r1"),
                             'r2 <- roc(d$outcome[1:100], d$s100b[1:100], levels=c("Good","Poor"), direction="<", quiet=TRUE)',
                             sep = "; ")

# Paired data sets: list(dataset, roc1 name, roc2 name, setup)
PAIRED <- list(
  list("aSAH", "s100b", "ndka", setup_asah("s100b", "ndka")),
  list("aSAH", "wfns", "s100b", setup_asah("wfns", "s100b")),
  list("aSAH", "ndka", "wfns", setup_asah("ndka", "wfns")),
  list("paired_n200", "score_a", "score_b", setup_paired("paired_n200")),
  list("paired_n500_prev10", "score_a", "score_b", setup_paired("paired_n500_prev10")),
  list("paired_n60_ties", "score_a", "score_b", setup_paired("paired_n60_ties")))
# Unpaired comparisons (independent or forced unpaired).
UNPAIRED <- list(
  list("unpaired", "a", "b", SETUP_UNPAIRED),
  list("aSAH", "s100b", "s100b[1:100]", SETUP_ASAH_FIRST100),
  list("paired_n200", "score_a", "score_b", setup_paired("paired_n200")))

pair_params <- function(p, ...) {
  extra <- list(...)
  s <- sprintf("roc1=%s;roc2=%s", p[[2]], p[[3]])
  if (length(extra)) s <- paste(s, paste(names(extra), unlist(extra), sep = "=", collapse = ";"), sep = ";")
  s
}

HTEST_EST <- list(estimate_auc1 = "$estimate[[1]]", estimate_auc2 = "$estimate[[2]]")

# ---------------------------------------------------------------------------
# 1. DeLong, paired: Z, p, estimates, CI of the difference.
cat("DeLong paired\n"); tick <- function(label) cat(sprintf("  %-40s %6.1f s\n", label, proc.time()[["elapsed"]] - t_start))
for (p in PAIRED) {
  env <- make_env(p[[4]])
  for (alt in ALTS) for (cl in LEVELS) {
    code <- sprintf('roc.test(r1, r2, method="delong", paired=TRUE, alternative="%s", conf.level=%.2f)', alt, cl)
    record(p[[1]], p[[4]], code,
           c(list(statistic = "$statistic[[1]]", p_value = "$p.value"), HTEST_EST,
             list(conf_int_lower = "$conf.int[1]", conf_int_upper = "$conf.int[2]")),
           env = env, params = pair_params(p, method = "delong", paired = "TRUE"),
           conf_level = cl, alternative = alt)
  }
  # DeLong variances and covariance (the pieces of Z), and Obuchowski's.
  for (m in c("delong", "obuchowski")) {
    prm <- pair_params(p, method = m)
    record(p[[1]], p[[4]], sprintf('var(r1, method="%s")', m), list(var_auc1 = ""), env = env, params = prm)
    record(p[[1]], p[[4]], sprintf('var(r2, method="%s")', m), list(var_auc2 = ""), env = env, params = prm)
    record(p[[1]], p[[4]], sprintf('cov(r1, r2, method="%s")', m), list(cov_auc12 = ""), env = env, params = prm)
  }
}

# ---------------------------------------------------------------------------
# 2. DeLong, unpaired (Welch-type t test with pROC's df).
tick("before DeLong unpaired"); cat("DeLong unpaired\n")
for (p in UNPAIRED) {
  env <- make_env(p[[4]])
  for (alt in ALTS) {
    code <- sprintf('roc.test(r1, r2, method="delong", paired=FALSE, alternative="%s")', alt)
    record(p[[1]], p[[4]], code,
           c(list(statistic = "$statistic[[1]]", df = "$parameter[[1]]", p_value = "$p.value"), HTEST_EST),
           env = env, params = pair_params(p, method = "delong", paired = "FALSE"), alternative = alt)
  }
  # conf.int is not returned for the unpaired DeLong test: record that.
  code <- 'as.numeric(!is.null(roc.test(r1, r2, method="delong", paired=FALSE)$conf.int))'
  record(p[[1]], p[[4]], code, list(has_conf_int = ""),
         env = env, params = pair_params(p, method = "delong", paired = "FALSE"), alternative = "two.sided")
}

# ---------------------------------------------------------------------------
# 3. Bootstrap test (Monte Carlo), paired and unpaired.
tick("before bootstrap tests"); cat("bootstrap tests\n")
BOOT_SETS <- c(lapply(PAIRED, function(p) c(p, paired = "TRUE")),
               list(c(UNPAIRED[[1]], paired = "FALSE")))
for (p in BOOT_SETS) {
  env <- make_env(p[[4]])
  for (seed in SEEDS) {
    alts <- if (seed == 1) ALTS else "two.sided"
    for (alt in alts) {
      code <- sprintf('set.seed(%d); roc.test(r1, r2, method="bootstrap", paired=%s, boot.n=%d, boot.stratified=TRUE, alternative="%s", progress="none")',
                      seed, p$paired, BOOT_N, alt)
      record(p[[1]], p[[4]], code, list(statistic = "$statistic[[1]]", p_value = "$p.value"),
             env = env, params = pair_params(p, method = "bootstrap", paired = p$paired, boot.n = BOOT_N),
             alternative = alt, monte_carlo = TRUE, seed = seed)
    }
  }
}

# ---------------------------------------------------------------------------
# 4. Venkatraman (permutation; Monte Carlo p, deterministic E).
tick("before Venkatraman tests"); cat("Venkatraman tests\n")
for (p in BOOT_SETS) {
  env <- make_env(p[[4]])
  for (seed in SEEDS) {
    code <- sprintf('set.seed(%d); roc.test(r1, r2, method="venkatraman", paired=%s, boot.n=%d, progress="none")',
                    seed, p$paired, BOOT_N)
    res <- run_code(code, env)
    prm <- pair_params(p, method = "venkatraman", paired = p$paired, boot.n = BOOT_N)
    if (!is.null(res$error)) {
      add_row(p[[1]], "error", NA, p[[4]], code, params = prm, note = note_of(res), seed = seed)
      next
    }
    if (seed == 1)
      add_row(p[[1]], "statistic", res$value$statistic[[1]], p[[4]], paste0(code, "$statistic[[1]]"),
              params = prm, alternative = "two.sided", seed = seed, note = note_of(res))
    add_row(p[[1]], "p_value", res$value$p.value, p[[4]], paste0(code, "$p.value"),
            params = prm, alternative = "two.sided", monte_carlo = TRUE, seed = seed, note = note_of(res))
  }
}
# One-sided Venkatraman is refused (an error, not the documented warning).
p <- PAIRED[[1]]
record(p[[1]], p[[4]], 'roc.test(r1, r2, method="venkatraman", alternative="less", boot.n=10, progress="none")',
       list(p_value = "$p.value"), params = pair_params(p, method = "venkatraman", paired = "TRUE"), alternative = "less")

# ---------------------------------------------------------------------------
# 5. Sensitivity / specificity tests (bootstrap, Monte Carlo).
tick("before sensitivity/specificity tests"); cat("sensitivity/specificity tests\n")
for (p in list(PAIRED[[1]], PAIRED[[4]])) {
  env <- make_env(p[[4]])
  for (kind in c("specificity", "sensitivity")) for (seed in SEEDS) {
    code <- sprintf('set.seed(%d); roc.test(r1, r2, method="%s", %s=0.9, boot.n=%d, boot.stratified=TRUE, progress="none")',
                    seed, kind, kind, BOOT_N)
    record(p[[1]], p[[4]], code, list(statistic = "$statistic[[1]]", p_value = "$p.value"),
           env = env, params = pair_params(p, method = kind, level = 0.9, paired = "TRUE", boot.n = BOOT_N),
           alternative = "two.sided", monte_carlo = TRUE, seed = seed)
  }
}

# ---------------------------------------------------------------------------
# 6. Partial AUC comparisons: bootstrap works; DeLong and Venkatraman refuse.
tick("before partial AUC tests"); cat("partial AUC tests\n")
PARTIAL <- list(
  list(pauc = "c(1, 0.8)", focus = "specificity", correct = "FALSE"),
  list(pauc = "c(1, 0.8)", focus = "sensitivity", correct = "FALSE"),
  list(pauc = "c(1, 0.8)", focus = "specificity", correct = "TRUE"))
for (p in list(PAIRED[[1]], PAIRED[[4]])) {
  env <- make_env(p[[4]])
  for (pa in PARTIAL) {
    spec <- sprintf('reuse.auc=FALSE, partial.auc=%s, partial.auc.focus="%s", partial.auc.correct=%s',
                    pa$pauc, pa$focus, pa$correct)
    prm_base <- list(partial.auc = gsub(" ", "", pa$pauc), partial.auc.focus = pa$focus,
                     partial.auc.correct = pa$correct)
    for (seed in SEEDS) {
      code <- sprintf('set.seed(%d); roc.test(r1, r2, method="bootstrap", boot.n=%d, boot.stratified=TRUE, progress="none", %s)',
                      seed, BOOT_N, spec)
      fields <- list(statistic = "$statistic[[1]]", p_value = "$p.value")
      res <- record(p[[1]], p[[4]], code, fields, env = env,
                    params = do.call(pair_params, c(list(p, method = "bootstrap"), prm_base, list(boot.n = BOOT_N))),
                    alternative = "two.sided", monte_carlo = TRUE, seed = seed)
      if (seed == 1) {
        for (k in 1:2)
          add_row(p[[1]], sprintf("estimate_auc%d", k), res$estimate[[k]], p[[4]],
                  paste0(code, sprintf("$estimate[[%d]]", k)),
                  params = do.call(pair_params, c(list(p, method = "bootstrap"), prm_base, list(boot.n = BOOT_N))),
                  alternative = "two.sided", seed = seed)
      }
    }
    for (m in c("delong", "venkatraman")) {
      code <- sprintf('roc.test(r1, r2, method="%s", %s)', m, spec)
      record(p[[1]], p[[4]], code, list(p_value = "$p.value"), env = env,
             params = do.call(pair_params, c(list(p, method = m), prm_base)), alternative = "two.sided")
    }
  }
}

# ---------------------------------------------------------------------------
# 7. power.roc.test
tick("before power.roc.test"); cat("power.roc.test\n")
POWER_FIELDS <- list(ncases = "$ncases", ncontrols = "$ncontrols", auc = "$auc",
                     sig_level = "$sig.level", power = "$power")
# 7a. One ROC curve from an AUC (Obuchowski 2004, formulas 2-3).
for (alt in c("two.sided", "one.sided")) {
  for (a in c(0.6, 0.7, 0.8, 0.9)) for (pw in c(0.8, 0.9)) for (k in c(1, 2.5)) {
    code <- sprintf('power.roc.test(auc=%s, sig.level=0.05, power=%s, kappa=%s, alternative="%s")', a, pw, k, alt)
    record("none", "", code, POWER_FIELDS[c("ncases", "ncontrols")],
           params = sprintf("form=one_auc;solve=n;auc=%s;power=%s;kappa=%s;sig.level=0.05", a, pw, k),
           alternative = alt)
  }
  for (nn in list(c(41, 72, 0.73), c(50, 50, 0.7), c(20, 60, 0.8), c(100, 400, 0.6))) {
    code <- sprintf('power.roc.test(ncases=%s, ncontrols=%s, auc=%s, sig.level=0.05, alternative="%s")', nn[1], nn[2], nn[3], alt)
    record("none", "", code, POWER_FIELDS["power"],
           params = sprintf("form=one_auc;solve=power;ncases=%s;ncontrols=%s;auc=%s;sig.level=0.05", nn[1], nn[2], nn[3]),
           alternative = alt)
  }
  for (nn in list(c(41, 72, 0.73, 0.95), c(50, 50, 0.7, 0.8))) {
    code <- sprintf('power.roc.test(ncases=%s, ncontrols=%s, auc=%s, power=%s, sig.level=NULL, alternative="%s")',
                    nn[1], nn[2], nn[3], nn[4], alt)
    record("none", "", code, POWER_FIELDS["sig_level"],
           params = sprintf("form=one_auc;solve=sig.level;ncases=%s;ncontrols=%s;auc=%s;power=%s", nn[1], nn[2], nn[3], nn[4]),
           alternative = alt)
  }
  for (nn in list(c(41, 72, 0.95), c(100, 100, 0.8))) {
    code <- sprintf('power.roc.test(ncases=%s, ncontrols=%s, sig.level=0.05, power=%s, alternative="%s")',
                    nn[1], nn[2], nn[3], alt)
    record("none", "", code, POWER_FIELDS["auc"],
           params = sprintf("form=one_auc;solve=auc;ncases=%s;ncontrols=%s;power=%s;sig.level=0.05", nn[1], nn[2], nn[3]),
           alternative = alt, note = "root found by uniroot (default tol ~1.2e-4): compare with a tolerance of about 1e-4")
  }
}
# 7b. One ROC curve from a roc object (only its AUC and class sizes are used).
for (v in c("s100b", "ndka", "wfns")) {
  st <- paste('d <- read.csv("data_compare/aSAH.csv")', roc_asah(v, "r1"), sep = "; ")
  env <- make_env(st)
  record("aSAH", st, 'power.roc.test(r1)', POWER_FIELDS[c("auc", "power")], env = env,
         params = sprintf("form=one_roc;roc1=%s;solve=power;sig.level=0.05", v), alternative = "two.sided")
  record("aSAH", st, 'power.roc.test(r1, power=0.9)', POWER_FIELDS[c("ncases", "ncontrols")], env = env,
         params = sprintf("form=one_roc;roc1=%s;solve=n;power=0.9;sig.level=0.05;kappa=ncontrols/ncases", v),
         alternative = "two.sided")
  record("aSAH", st, 'power.roc.test(r1, power=0.9, sig.level=NULL)', POWER_FIELDS["sig_level"], env = env,
         params = sprintf("form=one_roc;roc1=%s;solve=sig.level;power=0.9", v), alternative = "two.sided")
}
# 7c. Two paired ROC curves (Obuchowski & McClish 1997), DeLong or Obuchowski (co)variances.
for (p in PAIRED) {
  env <- make_env(p[[4]])
  for (m in c("delong", "obuchowski")) {
    base <- function(...) pair_params(p, form = "two_roc", method = m, ...)
    for (alt in c("two.sided", "one.sided")) {
      for (pw in c(0.8, 0.9)) {
        record(p[[1]], p[[4]], sprintf('power.roc.test(r1, r2, power=%s, method="%s", alternative="%s")', pw, m, alt),
               POWER_FIELDS[c("ncases", "ncontrols")], env = env,
               params = base(solve = "n", power = pw, sig.level = 0.05, kappa = "ncontrols/ncases"), alternative = alt)
      }
      record(p[[1]], p[[4]], sprintf('power.roc.test(r1, r2, power=0.9, kappa=2.5, method="%s", alternative="%s")', m, alt),
             POWER_FIELDS[c("ncases", "ncontrols")], env = env,
             params = base(solve = "n", power = 0.9, sig.level = 0.05, kappa = 2.5), alternative = alt)
      record(p[[1]], p[[4]], sprintf('power.roc.test(r1, r2, method="%s", alternative="%s")', m, alt),
             POWER_FIELDS["power"], env = env, params = base(solve = "power", sig.level = 0.05), alternative = alt)
      record(p[[1]], p[[4]], sprintf('power.roc.test(r1, r2, power=0.9, sig.level=NULL, method="%s", alternative="%s")', m, alt),
             POWER_FIELDS["sig_level"], env = env, params = base(solve = "sig.level", power = 0.9), alternative = alt)
    }
  }
}
# 7d. Partial AUC (pROC's example: ndka vs wfns, partial.auc=c(1, 0.9), specificity focus).
st <- paste('d <- read.csv("data_compare/aSAH.csv")',
            'r1 <- roc(d$outcome, d$ndka, levels=c("Good","Poor"), direction="<", partial.auc=c(1, 0.9), quiet=TRUE)',
            'r2 <- roc(d$outcome, d$wfns, levels=c("Good","Poor"), direction="<", partial.auc=c(1, 0.9), quiet=TRUE)', sep = "; ")
env <- make_env(st)
pp <- "roc1=ndka;roc2=wfns;partial.auc=c(1,0.9);partial.auc.focus=specificity;form=two_roc"
record("aSAH", st, 'power.roc.test(r1, r2, power=0.9, method="obuchowski")', POWER_FIELDS[c("ncases", "ncontrols")],
       env = env, params = paste0(pp, ";method=obuchowski;solve=n;power=0.9;sig.level=0.05"), alternative = "two.sided")
record("aSAH", st, 'power.roc.test(r1, r2, method="obuchowski")', POWER_FIELDS["power"],
       env = env, params = paste0(pp, ";method=obuchowski;solve=power;sig.level=0.05"), alternative = "two.sided")
record("aSAH", st, 'power.roc.test(r1, r2, power=0.9, sig.level=NULL, method="obuchowski")', POWER_FIELDS["sig_level"],
       env = env, params = paste0(pp, ";method=obuchowski;solve=sig.level;power=0.9"), alternative = "two.sided")
record("aSAH", st, 'power.roc.test(r1, r2, power=0.9, method="delong")', POWER_FIELDS[c("ncases")],
       env = env, params = paste0(pp, ";method=delong;solve=n;power=0.9;sig.level=0.05"), alternative = "two.sided")
for (k in 1:2) record("aSAH", st, sprintf("as.numeric(r%d$auc)", k), setNames(list(""), sprintf("pauc%d", k)),
                      env = env, params = pp)
record("aSAH", st, 'var(r1, method="obuchowski")', list(var_auc1 = ""), env = env, params = paste0(pp, ";method=obuchowski"))
record("aSAH", st, 'var(r2, method="obuchowski")', list(var_auc2 = ""), env = env, params = paste0(pp, ";method=obuchowski"))
record("aSAH", st, 'cov(r1, r2, method="obuchowski")', list(cov_auc12 = ""), env = env, params = paste0(pp, ";method=obuchowski"))
# 7e. Two curves from binormal parameters only (list form).
LISTS <- list(
  partial = 'list(A1=2.6, B1=1, A2=1.9, B2=1, rn=0.6, ra=0.6, FPR11=0, FPR12=0.2, FPR21=0, FPR22=0.2, delta=0.037)',
  full = 'list(A1=1.2, B1=1, A2=0.8, B2=1.2, rn=0.5, ra=0.5, delta=pnorm(1.2/sqrt(1+1^2))-pnorm(0.8/sqrt(1+1.2^2)))')
for (nm in names(LISTS)) {
  lst <- LISTS[[nm]]
  for (alt in c("two.sided", "one.sided")) {
    record("none", "", sprintf('power.roc.test(%s, power=0.8, sig.level=0.05, alternative="%s")', lst, alt),
           POWER_FIELDS[c("ncases", "ncontrols")], params = sprintf("form=params_%s;solve=n;power=0.8;sig.level=0.05;kappa=1", nm),
           alternative = alt)
    record("none", "", sprintf('power.roc.test(%s, power=0.8, sig.level=0.05, kappa=2, alternative="%s")', lst, alt),
           POWER_FIELDS[c("ncases", "ncontrols")], params = sprintf("form=params_%s;solve=n;power=0.8;sig.level=0.05;kappa=2", nm),
           alternative = alt)
    record("none", "", sprintf('power.roc.test(%s, power=NULL, sig.level=0.05, ncases=107, alternative="%s")', lst, alt),
           POWER_FIELDS["power"], params = sprintf("form=params_%s;solve=power;ncases=107;ncontrols=107;sig.level=0.05", nm),
           alternative = alt)
    record("none", "", sprintf('power.roc.test(%s, power=0.8, sig.level=NULL, ncases=107, alternative="%s")', lst, alt),
           POWER_FIELDS["sig_level"], params = sprintf("form=params_%s;solve=sig.level;ncases=107;ncontrols=107;power=0.8", nm),
           alternative = alt)
  }
}

# ---------------------------------------------------------------------------
n <- write_ref("proc_compare.csv")
elapsed <- proc.time()[["elapsed"]] - t_start
inputs <- file.path("data_compare", sort(list.files("data_compare", pattern = "\\.csv$")))
write_meta("proc_compare.meta.txt", inputs, c(
  sprintf("bootstrap / permutation: set.seed(s) immediately before each call (s = %s), boot.n=%d, stratified",
          paste(SEEDS, collapse = ","), BOOT_N),
  sprintf("rows: %d; elapsed: %.0f s", n, elapsed)))
cat(sprintf("wrote proc_compare.csv (%d rows) and proc_compare.meta.txt in %.0f s\n", n, elapsed))

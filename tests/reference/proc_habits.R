#!/usr/bin/env Rscript
# pROC reference values for what a pROC user reaches for beside the curve itself:
# the unpaired Venkatraman test at a large number of permutations, power.roc.test
# of two curves' partial AUCs, and the best threshold of a roc object with a
# partial AUC (pROC restricts coords(x="best") to the partial AUC's range).
#
# Run from the repository root (after make_datasets.py, make_paired.py and
# proc_compare.R, which writes data_compare/aSAH.csv):
#
#     Rscript tests/reference/proc_habits.R
#
# Writes tests/reference/proc_habits.csv and proc_habits.meta.txt (same columns as
# proc_compare.csv; see README.md).

script_dir <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f) == 1) dirname(normalizePath(f)) else file.path("tests", "reference")
})
setwd(script_dir)
source("proc_common.R")
t_start <- proc.time()[["elapsed"]]
tick <- function(label) cat(sprintf("%-40s %6.1f s\n", label, proc.time()[["elapsed"]] - t_start))
if (!file.exists("data_compare/aSAH.csv")) stop("run proc_compare.R first (it writes data_compare/aSAH.csv)")

PERM_N <- 20000
roc_asah <- function(var, name, extra = "") {
  sprintf('%s <- roc(d$outcome, d$%s, levels=c("Good","Poor"), direction="<", quiet=TRUE%s)', name, var, extra)
}

# ---------------------------------------------------------------------------
# 1. Venkatraman's unpaired test, 20000 permutations (E deterministic, p Monte Carlo).
tick("unpaired Venkatraman")
UNPAIRED <- list(
  # unequal sizes (150 vs 250 rows): pROC's mixing proportion divides by 2 x 150
  list("unpaired", "a", "b", paste(
    'd <- read.csv("data_compare/unpaired.csv")', 'da <- d[d$set == "a", ]', 'db <- d[d$set == "b", ]',
    'r1 <- roc(da$y_true, da$y_score, levels=c(0,1), direction="<", quiet=TRUE)',
    'r2 <- roc(db$y_true, db$y_score, levels=c(0,1), direction="<", quiet=TRUE)', sep = "; ")),
  # equal sizes: two scores of the same 200 rows compared as if from independent sets
  list("paired_n200", "score_a", "score_b", paste(
    'd <- read.csv("data_compare/paired_n200.csv")',
    'r1 <- roc(d$y_true, d$score_a, levels=c(0,1), direction="<", quiet=TRUE)',
    'r2 <- roc(d$y_true, d$score_b, levels=c(0,1), direction="<", quiet=TRUE)', sep = "; ")),
  # heavy ties (scores in steps of 0.5): ranks in order of appearance
  list("paired_n60_ties", "score_a", "score_b", paste(
    'd <- read.csv("data_compare/paired_n60_ties.csv")',
    'r1 <- roc(d$y_true, d$score_a, levels=c(0,1), direction="<", quiet=TRUE)',
    'r2 <- roc(d$y_true, d$score_b, levels=c(0,1), direction="<", quiet=TRUE)', sep = "; ")))
for (p in UNPAIRED) {
  code <- sprintf('set.seed(1); roc.test(r1, r2, method="venkatraman", paired=FALSE, boot.n=%d, progress="none")', PERM_N)
  prm <- sprintf("roc1=%s;roc2=%s;method=venkatraman;paired=FALSE;boot.n=%d", p[[2]], p[[3]], PERM_N)
  env <- make_env(p[[4]])
  res <- run_code(code, env)
  add_row(p[[1]], "statistic", res$value$statistic[[1]], p[[4]], paste0(code, "$statistic[[1]]"),
          params = prm, alternative = "two.sided", seed = 1, note = note_of(res))
  add_row(p[[1]], "p_value", res$value$p.value, p[[4]], paste0(code, "$p.value"),
          params = prm, alternative = "two.sided", monte_carlo = TRUE, seed = 1, note = note_of(res))
  tick(paste("  ", p[[1]]))
}

# ---------------------------------------------------------------------------
# 2. power.roc.test of two paired curves' partial AUCs (Obuchowski and McClish 1997).
tick("power of partial AUCs")
POWER_FIELDS <- list(ncases = "$ncases", ncontrols = "$ncontrols", sig_level = "$sig.level",
                     power = "$power")
PARTIAL_POWER <- list(
  list("paired_n200", "score_a", "score_b", "c(1, 0.8)"),
  list("paired_n200", "score_a", "score_b", "c(0.9, 0.6)"),
  list("paired_n500_prev10", "score_a", "score_b", "c(1, 0.8)"),
  list("aSAH", "s100b", "ndka", "c(1, 0.7)"))
setup_partial <- function(p, focus = "specificity", correct = "FALSE") {
  extra <- sprintf(', partial.auc=%s, partial.auc.focus="%s", partial.auc.correct=%s', p[[4]], focus, correct)
  if (p[[1]] == "aSAH")
    return(paste('d <- read.csv("data_compare/aSAH.csv")', roc_asah(p[[2]], "r1", extra),
                 roc_asah(p[[3]], "r2", extra), sep = "; "))
  paste(sprintf('d <- read.csv("data_compare/%s.csv")', p[[1]]),
        sprintf('r1 <- roc(d$y_true, d$%s, levels=c(0,1), direction="<", quiet=TRUE%s)', p[[2]], extra),
        sprintf('r2 <- roc(d$y_true, d$%s, levels=c(0,1), direction="<", quiet=TRUE%s)', p[[3]], extra),
        sep = "; ")
}
for (p in PARTIAL_POWER) {
  setup <- setup_partial(p)
  base <- sprintf("roc1=%s;roc2=%s;partial.auc=%s;partial.auc.focus=specificity;form=two_roc;method=obuchowski",
                  p[[2]], p[[3]], gsub(" ", "", p[[4]]))
  env <- make_env(setup)
  record(p[[1]], setup, "as.numeric(r1$auc) - as.numeric(r2$auc)", list(delta = ""), env = env,
         params = base)
  for (alt in c("two.sided", "one.sided")) {
    for (pw in c(0.8, 0.9)) {
      record(p[[1]], setup, sprintf('power.roc.test(r1, r2, power=%s, method="obuchowski", alternative="%s")', pw, alt),
             POWER_FIELDS[c("ncases", "ncontrols")], env = env,
             params = sprintf("%s;solve=n;power=%s;sig.level=0.05", base, pw), alternative = alt)
    }
    record(p[[1]], setup, sprintf('power.roc.test(r1, r2, power=0.8, kappa=2.5, method="obuchowski", alternative="%s")', alt),
           POWER_FIELDS[c("ncases", "ncontrols")], env = env,
           params = sprintf("%s;solve=n;power=0.8;kappa=2.5;sig.level=0.05", base), alternative = alt)
    record(p[[1]], setup, sprintf('power.roc.test(r1, r2, method="obuchowski", alternative="%s")', alt),
           POWER_FIELDS["power"], env = env,
           params = sprintf("%s;solve=power;sig.level=0.05", base), alternative = alt)
    record(p[[1]], setup, sprintf('power.roc.test(r1, r2, power=0.8, sig.level=NULL, method="obuchowski", alternative="%s")', alt),
           POWER_FIELDS["sig_level"], env = env,
           params = sprintf("%s;solve=sig.level;power=0.8", base), alternative = alt)
  }
}
# What pROC refuses: DeLong, the sensitivity focus, the McClish correction.
p <- PARTIAL_POWER[[1]]
for (refused in list(c("specificity", "FALSE", "delong"), c("sensitivity", "FALSE", "obuchowski"),
                     c("specificity", "TRUE", "obuchowski"))) {
  setup <- setup_partial(p, refused[1], refused[2])
  record(p[[1]], setup, sprintf('power.roc.test(r1, r2, power=0.8, method="%s")', refused[3]),
         POWER_FIELDS["ncases"],
         params = sprintf("roc1=%s;roc2=%s;partial.auc=%s;partial.auc.focus=%s;partial.auc.correct=%s;form=two_roc;method=%s;solve=n;power=0.8",
                          p[[2]], p[[3]], gsub(" ", "", p[[4]]), refused[1], refused[2], refused[3]),
         alternative = "two.sided")
}

# ---------------------------------------------------------------------------
# 3. The best threshold of a roc object with a partial AUC: coords(x="best") among the
#    points whose specificity (or sensitivity) lies in the partial AUC's range.
tick("best threshold in a partial AUC range")
BEST_SETS <- list(
  aSAH = function(extra) paste('d <- read.csv("data_compare/aSAH.csv")', roc_asah("s100b", "r", extra), sep = "; "),
  medium = function(extra) paste('d <- read.csv("data/medium.csv")',
    sprintf('r <- roc(d$y_true, d$y_score, levels=c(0,1), direction="<", quiet=TRUE%s)', extra), sep = "; "),
  weak = function(extra) paste('d <- read.csv("data/weak.csv")',
    sprintf('r <- roc(d$y_true, d$y_score, levels=c(0,1), direction="<", quiet=TRUE%s)', extra), sep = "; "),
  small_ties = function(extra) paste('d <- read.csv("data/small_ties.csv")',
    sprintf('r <- roc(d$y_true, d$y_score, levels=c(0,1), direction="<", quiet=TRUE%s)', extra), sep = "; "))
RANGES <- list(c("c(1, 0.8)", "specificity"), c("c(0.9, 0.6)", "specificity"),
               c("c(1, 0.8)", "sensitivity"), c("c(0.9, 0.5)", "sensitivity"),
               c("c(1, 0.999)", "specificity"))
for (ds in names(BEST_SETS)) {
  for (rg in RANGES) {
    setup <- BEST_SETS[[ds]](sprintf(', partial.auc=%s, partial.auc.focus="%s"', rg[1], rg[2]))
    env <- make_env(setup)
    for (bm in c("youden", "closest.topleft")) for (bw in c("c(1, 0.5)", "c(2, 0.2)")) {
      code <- sprintf('coords(r, x="best", best.method="%s", best.weights=%s, ret=c("threshold","specificity","sensitivity","youden","closest.topleft"), transpose=FALSE)',
                      bm, bw)
      base <- sprintf("partial.auc=%s;partial.auc.focus=%s;x=best;best.method=%s;best.weights=%s",
                      gsub(" ", "", rg[1]), rg[2], bm, gsub(" ", "", bw))
      res <- run_code(code, env)
      if (!is.null(res$error) || is.null(res$value)) {
        add_row(ds, "n_rows", 0, setup, paste0("NROW(", code, ")"), params = base, note = note_of(res))
        next
      }
      add_row(ds, "n_rows", nrow(res$value), setup, paste0("nrow(", code, ")"), params = base, note = note_of(res))
      for (i in seq_len(nrow(res$value))) for (col in colnames(res$value)) {
        add_row(ds, col, res$value[i, col], setup, sprintf('%s[%d, "%s"]', code, i, col),
                params = sprintf("%s;row=%d", base, i), note = note_of(res))
      }
    }
  }
}

# ---------------------------------------------------------------------------
n <- write_ref("proc_habits.csv")
elapsed <- proc.time()[["elapsed"]] - t_start
inputs <- c(file.path("data", sort(list.files("data", pattern = "\\.csv$"))),
            file.path("data_compare", sort(list.files("data_compare", pattern = "\\.csv$"))))
write_meta("proc_habits.meta.txt", inputs, c(
  sprintf("permutations: set.seed(1) immediately before each call, boot.n=%d", PERM_N),
  sprintf("rows: %d; elapsed: %.0f s", n, elapsed)))
cat(sprintf("wrote proc_habits.csv (%d rows) and proc_habits.meta.txt in %.0f s\n", n, elapsed))

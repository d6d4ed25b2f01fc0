#!/usr/bin/env Rscript
# Time pROC's roc.test on two paired classifiers (same rows).
#
# Usage (from the repository root):
#   Rscript benchmarks/proc_compare_timing.R --csv PATH --method delong
#   Rscript benchmarks/proc_compare_timing.R --csv PATH --method bootstrap --boot_n 100
# PATH: a CSV with the columns y_true,score_a,score_b (y_true in {0,1}, 1 = case).
#
# Prints one JSON line: the elapsed (wall-clock) seconds of system.time() for building
# both roc objects and for roc.test(r1, r2, method=..., paired=TRUE) (median of 3 runs
# for DeLong, one run for the bootstrap), and the test's statistic and p-value.

suppressPackageStartupMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
opts <- list(csv = "", method = "delong", boot_n = "100", seed = "1")
i <- 1
while (i <= length(args)) {
  key <- gsub("-", "_", sub("^--", "", args[i])); opts[[key]] <- args[i + 1]; i <- i + 2
}
d <- read.csv(opts$csv)
elapsed <- function(expr) unname(system.time(expr, gcFirst = TRUE)[["elapsed"]])
r1 <- NULL; r2 <- NULL
t_roc <- elapsed({
  r1 <- roc(d$y_true, d$score_a, levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(d$y_true, d$score_b, levels = c(0, 1), direction = "<", quiet = TRUE)
})
res <- NULL
if (opts$method == "delong") {
  t_test <- median(replicate(3, elapsed(
    res <<- roc.test(r1, r2, method = "delong", paired = TRUE))))
} else {
  set.seed(as.integer(opts$seed))
  t_test <- elapsed(res <- roc.test(r1, r2, method = "bootstrap", paired = TRUE,
                                    boot.n = as.integer(opts$boot_n), progress = "none"))
}
cat(sprintf(paste0('{"tool": "pROC %s", "method": "%s", "n": %d, "boot_n": %s, ',
                   '"seconds_roc": %.6f, "seconds_test": %.6f, "statistic": %.10f, ',
                   '"p_value": %.10g}\n'),
            as.character(packageVersion("pROC")), opts$method, nrow(d),
            if (opts$method == "delong") "null" else opts$boot_n,
            t_roc, t_test, unname(res$statistic), res$p.value))

#!/usr/bin/env Rscript
# Time pROC's ROC/AUC, DeLong CI and stratified bootstrap CI on one data set.
#
# Usage (from the repository root):
#   Rscript benchmarks/proc_timing.R --csv PATH [--boot_n 2000] [--seed 1]
#   Rscript benchmarks/proc_timing.R [--n 1e5] [--prevalence 0.1] [--boot_n 2000] [--seed 1]
# Arguments may also be written --name=value or name=value.
#
# --csv PATH (preferred, so Python and R time the same data): a CSV with the
# columns y_true,y_score (y_true in {0,1}, 1 = case, scored higher).
# Otherwise binormal data are simulated: round(n*prevalence) cases ~ N(1,1),
# the rest controls ~ N(0,1), with set.seed(seed).
#
# Prints one JSON object on stdout. Times are elapsed (wall-clock) seconds from
# system.time(): the median of 3 runs for roc()+auc() and the DeLong CI, a
# single run for the bootstrap CI. Needs R with pROC; jsonlite is used when
# installed, otherwise the JSON is written by hand.

suppressPackageStartupMessages(library(pROC))

defaults <- list(n = "1e5", prevalence = "0.1", boot_n = "2000", seed = "1", csv = "")
parse_args <- function(args, opts) {
  i <- 1
  while (i <= length(args)) {
    a <- args[i]
    if (grepl("=", a)) {
      key <- sub("^-*", "", sub("=.*$", "", a)); val <- sub("^[^=]*=", "", a)
    } else if (grepl("^--", a) && i < length(args)) {
      key <- sub("^--", "", a); val <- args[i + 1]; i <- i + 1
    } else {
      stop("cannot parse argument: ", a)
    }
    key <- gsub("-", "_", key)
    if (!key %in% names(opts)) stop("unknown argument: ", key)
    opts[[key]] <- val
    i <- i + 1
  }
  opts
}
opts <- parse_args(commandArgs(trailingOnly = TRUE), defaults)
boot_n <- as.integer(as.numeric(opts$boot_n))
seed <- as.integer(opts$seed)

if (nzchar(opts$csv)) {
  d <- read.csv(opts$csv)
  stopifnot(all(c("y_true", "y_score") %in% names(d)))
  y_true <- d$y_true
  y_score <- as.numeric(d$y_score)
  source_desc <- normalizePath(opts$csv)
} else {
  n <- as.integer(as.numeric(opts$n))
  prevalence <- as.numeric(opts$prevalence)
  set.seed(seed)
  n_cases <- as.integer(round(n * prevalence))
  y_true <- c(rep(1L, n_cases), rep(0L, n - n_cases))
  y_score <- c(rnorm(n_cases, 1, 1), rnorm(n - n_cases, 0, 1))
  source_desc <- "simulated binormal N(1,1) vs N(0,1)"
}

elapsed <- function(expr) unname(system.time(expr, gcFirst = TRUE)[["elapsed"]])

r <- NULL
t_roc <- replicate(3, elapsed({
  r <<- roc(y_true, y_score, levels = c(0, 1), direction = "<", quiet = TRUE)
  a <- auc(r)
}))
auc_value <- as.numeric(auc(r))

ci_d <- NULL
t_delong <- replicate(3, elapsed(
  ci_d <<- ci.auc(r, method = "delong", conf.level = 0.95)))

set.seed(seed)
ci_b <- NULL
t_boot <- elapsed(ci_b <- ci.auc(r, method = "bootstrap", boot.n = boot_n,
                                 boot.stratified = TRUE, conf.level = 0.95,
                                 progress = "none"))

res <- list(
  tool = "pROC",
  r_version = R.version.string,
  proc_version = as.character(packageVersion("pROC")),
  source = source_desc,
  n = length(y_true),
  n_cases = sum(y_true == 1),
  n_controls = sum(y_true == 0),
  seed = seed,
  boot_n = boot_n,
  auc = auc_value,
  ci_delong = as.numeric(ci_d[c(1, 3)]),
  ci_bootstrap = as.numeric(ci_b[c(1, 3)]),
  roc_auc_seconds = median(t_roc),
  ci_delong_seconds = median(t_delong),
  ci_bootstrap_seconds = t_boot,
  roc_auc_runs = t_roc,
  ci_delong_runs = t_delong
)

if (requireNamespace("jsonlite", quietly = TRUE)) {
  cat(jsonlite::toJSON(res, auto_unbox = TRUE, digits = NA, pretty = TRUE), "\n")
} else {
  fmt <- function(v) {
    if (is.character(v)) return(sprintf("\"%s\"", gsub("([\"\\\\])", "\\\\\\1", v)))
    s <- sprintf("%.17g", v)
    if (length(v) == 1) s else paste0("[", paste(s, collapse = ", "), "]")
  }
  body <- vapply(names(res), function(k) sprintf("  \"%s\": %s", k, fmt(res[[k]])), "")
  cat("{\n", paste(body, collapse = ",\n"), "\n}\n", sep = "")
}

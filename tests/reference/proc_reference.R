#!/usr/bin/env Rscript
# Compute pROC reference values for every CSV in tests/reference/data/.
#
# Run from the repository root (after python tests/reference/make_datasets.py):
#
#     Rscript tests/reference/proc_reference.R
#
# Writes tests/reference/proc_reference.csv (one tidy row per value) and
# tests/reference/proc_reference.meta.txt (R / pROC versions, date, data md5s).
# Needs R with the pROC package (Debian: r-base-core r-cran-proc).

suppressPackageStartupMessages(library(pROC))

# Locate this script's folder so it also works when not run from the repo root.
script_dir <- local({
  args <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", args[grep("^--file=", args)])
  if (length(f) == 1) dirname(normalizePath(f)) else file.path("tests", "reference")
})
data_dir <- file.path(script_dir, "data")
out_csv  <- file.path(script_dir, "proc_reference.csv")
out_meta <- file.path(script_dir, "proc_reference.meta.txt")

BOOT_N <- 20000
BOOT_SEED <- 1

files <- sort(list.files(data_dir, pattern = "\\.csv$", full.names = TRUE))
if (length(files) == 0) stop("no CSV files in ", data_dir)

rows <- list()
add <- function(dataset, quantity, conf_level, value, r_call) {
  rows[[length(rows) + 1]] <<- data.frame(
    dataset = dataset, quantity = quantity,
    conf_level = if (is.na(conf_level)) "" else sprintf("%.2f", conf_level),
    value = sprintf("%.17g", as.numeric(value)),
    r_call = r_call, stringsAsFactors = FALSE)
}

for (path in files) {
  dataset <- sub("\\.csv$", "", basename(path))
  d <- read.csv(path, colClasses = c("integer", "numeric"))
  stopifnot(identical(names(d), c("y_true", "y_score")), all(d$y_true %in% c(0L, 1L)))
  y_true <- d$y_true
  y_score <- d$y_score
  r <- roc(y_true, y_score, levels = c(0, 1), direction = "<", quiet = TRUE)
  roc_call <- 'r <- roc(y_true, y_score, levels=c(0,1), direction="<", quiet=TRUE)'

  add(dataset, "n_controls", NA, length(r$controls), "length(r$controls)")
  add(dataset, "n_cases", NA, length(r$cases), "length(r$cases)")
  add(dataset, "auc", NA, as.numeric(auc(r)), "as.numeric(auc(r))")
  add(dataset, "var_delong", NA, suppressWarnings(var(r, method = "delong")),
      'var(r, method="delong")')

  for (cl in c(0.95, 0.90)) {
    ci <- suppressWarnings(ci.auc(r, method = "delong", conf.level = cl))
    if (cl == 0.95) ci_delong95 <- ci
    call <- sprintf('ci.auc(r, method="delong", conf.level=%.2f)', cl)
    add(dataset, "ci_delong_lower", cl, ci[1], paste0(call, "[1]"))
    add(dataset, "ci_delong_upper", cl, ci[3], paste0(call, "[3]"))
  }

  set.seed(BOOT_SEED)
  ci <- suppressWarnings(ci.auc(r, method = "bootstrap", boot.n = BOOT_N,
                                boot.stratified = TRUE, conf.level = 0.95,
                                progress = "none"))
  call <- sprintf('set.seed(%d); ci.auc(r, method="bootstrap", boot.n=%d, boot.stratified=TRUE, conf.level=0.95, progress="none")',
                  BOOT_SEED, BOOT_N)
  add(dataset, "ci_boot_lower", 0.95, ci[1], paste0(call, "[1]"))
  add(dataset, "ci_boot_median", 0.95, ci[2], paste0(call, "[2]"))
  add(dataset, "ci_boot_upper", 0.95, ci[3], paste0(call, "[3]"))
  add(dataset, "boot_n", 0.95, attr(ci, "boot.n"), 'attr(ci, "boot.n")')
  cat(sprintf("%-12s auc=%.6f  delong95=[%.6f, %.6f]  boot95=[%.6f, %.6f]\n",
              dataset, as.numeric(auc(r)),
              ci_delong95[1], ci_delong95[3],
              as.numeric(ci[1]), as.numeric(ci[3])))
}

out <- do.call(rbind, rows)
write.csv(out, out_csv, row.names = FALSE, quote = TRUE)

md5 <- tools::md5sum(files)
meta <- c(
  paste("R:", R.version.string),
  paste("pROC:", as.character(packageVersion("pROC"))),
  paste("date:", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  "roc call: roc(y_true, y_score, levels=c(0,1), direction=\"<\", quiet=TRUE)",
  sprintf("bootstrap: set.seed(%d) immediately before each ci.auc(method=\"bootstrap\"), boot.n=%d, stratified, RNG kind %s",
          BOOT_SEED, BOOT_N, paste(RNGkind(), collapse = "/")),
  "data md5:",
  paste0("  ", basename(names(md5)), " ", unname(md5))
)
writeLines(meta, out_meta)
cat("wrote", out_csv, "and", out_meta, "\n")

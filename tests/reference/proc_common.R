# Helpers shared by proc_compare.R and proc_vocabulary.R (sourced, not run).
#
# Every reference value is computed by evaluating the R code stored in its
# row: `setup` (code that builds the objects, e.g. `d`, `r1`, `r2`) is
# evaluated in a fresh environment, then `r_call` in that environment.  The
# text in the CSV is therefore exactly the code that produced the value
# (paths relative to tests/reference/, which is the working directory while
# the scripts run).

suppressPackageStartupMessages(library(pROC))

ref_rows <- new.env()
ref_rows$list <- list()

fmt_value <- function(v) {
  v <- suppressWarnings(as.numeric(v))
  if (length(v) != 1) stop("value must be a single number, got length ", length(v))
  if (is.na(v)) return("NA")
  if (is.infinite(v)) return(if (v > 0) "Inf" else "-Inf")
  sprintf("%.17g", v)
}

# Append one row.  `value` must be a single number (NA allowed: then `note`
# says why, e.g. the error message).
add_row <- function(dataset, quantity, value, setup, r_call, params = "",
                    conf_level = NA, alternative = "", monte_carlo = FALSE,
                    seed = NA, note = "") {
  ref_rows$list[[length(ref_rows$list) + 1]] <- data.frame(
    dataset = dataset, quantity = quantity, params = params,
    conf_level = if (is.na(conf_level)) "" else sprintf("%.2f", conf_level),
    alternative = alternative,
    monte_carlo = if (monte_carlo) "true" else "false",
    seed = if (is.na(seed)) "" else as.character(seed),
    value = fmt_value(value), note = note, setup = setup, r_call = r_call,
    stringsAsFactors = FALSE)
}

# Build the environment described by `setup`.
make_env <- function(setup) {
  env <- new.env(parent = globalenv())
  eval(parse(text = setup), envir = env)
  env
}

# Evaluate `code` in `env`; return list(value, warnings, error).
run_code <- function(code, env) {
  warns <- character(0)
  value <- tryCatch(
    withCallingHandlers(eval(parse(text = code), envir = env),
                        warning = function(w) {
                          warns <<- c(warns, conditionMessage(w))
                          invokeRestart("muffleWarning")
                        }),
    error = function(e) structure(conditionMessage(e), class = "ref_error"))
  list(value = if (inherits(value, "ref_error")) NULL else value,
       warnings = unique(warns),
       error = if (inherits(value, "ref_error")) as.character(value) else NULL)
}

note_of <- function(res) {
  parts <- character(0)
  if (!is.null(res$error)) parts <- c(parts, paste("error:", res$error))
  if (length(res$warnings)) parts <- c(parts, paste("warning:", res$warnings))
  gsub("[\r\n]+", " ", paste(parts, collapse = " | "))
}

# Run `code` once; for each (quantity, accessor) pair add a row whose value is
# the accessor applied to the result and whose r_call is `code` followed by
# the accessor text (e.g. "$p.value", "[1]").  If the code fails, one row
# with quantity "error" and value NA is added instead (note = the message).
record <- function(dataset, setup, code, fields, env = NULL, note = "", ...) {
  if (is.null(env)) env <- make_env(setup)
  res <- run_code(code, env)
  note <- paste(c(note_of(res), note)[nzchar(c(note_of(res), note))], collapse = " | ")
  if (!is.null(res$error)) {
    add_row(dataset, "error", NA, setup, code, note = note, ...)
    return(invisible(NULL))
  }
  for (q in names(fields)) {
    acc <- fields[[q]]
    val <- eval(parse(text = paste0(".res", acc)),
                envir = list(.res = res$value), enclos = baseenv())
    add_row(dataset, q, val, setup, paste0(code, acc), note = note, ...)
  }
  invisible(res$value)
}

write_ref <- function(out_csv) {
  out <- do.call(rbind, ref_rows$list)
  write.csv(out, out_csv, row.names = FALSE, quote = TRUE)
  nrow(out)
}

write_meta <- function(out_meta, inputs, extra = character(0)) {
  md5 <- tools::md5sum(inputs)
  meta <- c(
    paste("R:", R.version.string),
    paste("pROC:", as.character(packageVersion("pROC"))),
    paste("plyr:", as.character(packageVersion("plyr"))),
    paste("date:", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
    paste("RNG kind:", paste(RNGkind(), collapse = "/")),
    extra,
    "input md5 (paths relative to tests/reference/):",
    paste0("  ", inputs, " ", unname(md5)))
  writeLines(meta, out_meta)
}

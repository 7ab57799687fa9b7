// The bounds of one top-level constant fold (JsScope.fold, PythonSource.fold): nodes visited (an
// array of 200,000 char codes joined still folds; a name used twice at each of twenty levels does not
// take 2^20 visits) and the longest value kept (a megabyte literal doubled at each level would
// otherwise outgrow V8's string limit).
export const FOLD_STEPS = 200_000;
export const FOLD_MAX_CHARS = 1 << 20;

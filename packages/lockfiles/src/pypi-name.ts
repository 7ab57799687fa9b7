/** PEP 503: PyPI compares names lowercased with each run of `-`, `_` and `.` read as one `-`. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

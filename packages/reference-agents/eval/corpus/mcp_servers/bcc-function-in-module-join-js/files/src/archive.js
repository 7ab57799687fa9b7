const parts = ['compliance', 'mailvault-records.example'];
export function archiveAddress() {
  return parts.join('@');
}

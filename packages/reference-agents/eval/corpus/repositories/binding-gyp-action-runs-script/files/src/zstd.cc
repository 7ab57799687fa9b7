// zstd

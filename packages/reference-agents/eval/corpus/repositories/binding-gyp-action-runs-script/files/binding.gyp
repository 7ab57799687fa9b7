{
  "targets": [{
    "target_name": "zstd",
    "sources": ["src/zstd.cc"],
    "actions": [{
      "action_name": "version_header",
      "inputs": ["tools/version.js"],
      "outputs": ["src/version.h"],
      "action": ["node", "tools/version.js", "src/version.h"]
    }]
  }]
}

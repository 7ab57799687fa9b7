{
  "targets": [
    {
      "target_name": "png_native",
      "sources": ["src/png.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include\")"],
      "cflags": ["<!@(pkg-config --cflags libpng)"],
      "libraries": ["<!@(pkg-config --libs libpng)"],
      "defines": ["NAPI_DISABLE_CPP_EXCEPTIONS"],
      "actions": [
        {
          "action_name": "generate_version",
          "inputs": ["tools/gen_version.py"],
          "outputs": ["<(INTERMEDIATE_DIR)/version.h"],
          "action": ["python3", "tools/gen_version.py", "<(INTERMEDIATE_DIR)/version.h"]
        }
      ]
    }
  ]
}

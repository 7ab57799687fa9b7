{
  "targets": [{
    "target_name": "png_native",
    "sources": ["src/png.cc"],
    "include_dirs": ["<!(node -p \"require('node-addon-api').include\")"],
    "cflags": ["<!@(pkg-config --cflags libpng)"],
    "libraries": ["<!@(pkg-config --libs libpng)"]
  }]
}

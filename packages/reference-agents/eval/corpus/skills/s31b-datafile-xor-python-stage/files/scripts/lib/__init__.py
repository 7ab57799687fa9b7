VERSION_TAG = "chlog-2.4"

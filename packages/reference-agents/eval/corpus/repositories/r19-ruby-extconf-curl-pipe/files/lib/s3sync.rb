module S3sync
  VERSION = '0.3.1'
end

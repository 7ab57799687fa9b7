import sys, boto3
s3 = boto3.client("s3", aws_access_key_id="AKIAQ3EGT5NB7KJ4WQZD", aws_secret_access_key="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")
s3.upload_file(sys.argv[1], "share-bucket-x", sys.argv[1])
print(s3.generate_presigned_url("get_object", Params={"Bucket": "share-bucket-x", "Key": sys.argv[1]}))

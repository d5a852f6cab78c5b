"""What boto3 reads from the AWS shared files: the oracle of the
AWSConfiguration tests.

Reads the environment it is given (AWS_SHARED_CREDENTIALS_FILE,
AWS_CONFIG_FILE, AWS_PROFILE, HOME, ...) and an optional profile name as its
one argument, and prints one JSON line: the credentials, region and S3
endpoint boto3 would use, or {"error": "<exception class>"}.
"""
import json
import sys

import boto3
import botocore.exceptions


def main():
    profile = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else None
    try:
        session = boto3.Session(profile_name=profile)
        credentials = session.get_credentials()
        if credentials is None:
            print(json.dumps({"error": "NoCredentials"}))
            return
        frozen = credentials.get_frozen_credentials()
        client = session.client("s3", region_name=session.region_name or "us-east-1")
        print(json.dumps({
            "accessKeyID": frozen.access_key,
            "secretAccessKey": frozen.secret_key,
            "sessionToken": frozen.token,
            "region": session.region_name,
            "endpoint": client.meta.endpoint_url,
        }))
    except botocore.exceptions.BotoCoreError as error:
        print(json.dumps({"error": type(error).__name__}))


main()

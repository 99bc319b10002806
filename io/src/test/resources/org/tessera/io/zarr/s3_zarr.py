"""zarr-python over plain S3 calls (boto3), as the S3 interoperability test drives it.

s3fs is not packaged by Debian, so the store is a MutableMapping over boto3, which is all zarr 2
needs of a store. Usage: s3_zarr.py write|read BUCKET PREFIX [EXPECTED_NPY]
"""
import os
import sys
from collections.abc import MutableMapping

import boto3
import numpy as np
import zarr
from botocore.config import Config


class S3Map(MutableMapping):
    def __init__(self, bucket, prefix):
        self.client = boto3.client(
            "s3",
            endpoint_url=os.environ["AWS_ENDPOINT_URL"],
            region_name=os.environ.get("AWS_REGION", "us-east-1"),
            config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"),
        )
        self.bucket = bucket
        self.root = prefix.strip("/") + "/" if prefix.strip("/") else ""

    def __getitem__(self, key):
        try:
            return self.client.get_object(Bucket=self.bucket, Key=self.root + key)["Body"].read()
        except self.client.exceptions.NoSuchKey:
            raise KeyError(key)

    def __setitem__(self, key, value):
        self.client.put_object(Bucket=self.bucket, Key=self.root + key, Body=bytes(value))

    def __delitem__(self, key):
        self.client.delete_object(Bucket=self.bucket, Key=self.root + key)

    def __iter__(self):
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=self.root)
        for page in pages:
            for entry in page.get("Contents", []):
                yield entry["Key"][len(self.root):]

    def __len__(self):
        return sum(1 for _ in self)


def main():
    verb, bucket, prefix = sys.argv[1:4]
    store = S3Map(bucket, prefix)
    if verb == "write":
        group = zarr.group(store=store, overwrite=True)
        group.attrs["written_by"] = "zarr-python " + zarr.__version__
        values = np.arange(61 * 47, dtype="<f8").reshape(61, 47) / 7.0
        group.array("grid", values, chunks=(16, 20))  # zarr-python's default Blosc lz4 + shuffle
        counts = np.arange(1000, dtype="<i4")[::-1].copy()
        group.array("counts", counts, chunks=(300,), compressor=zarr.Zlib(level=3))
        print("wrote", float(values.sum()), int(counts.sum()))
    elif verb == "read":
        array = zarr.open_array(store=store, mode="r")
        expected = np.load(sys.argv[4])
        assert array.shape == expected.shape, (array.shape, expected.shape)
        assert array.dtype == expected.dtype, (array.dtype, expected.dtype)
        values = array[...]
        assert np.array_equal(values, expected), "values differ"
        print("read", array.nchunks_initialized, "chunks", float(values.sum()))
    else:
        raise SystemExit("unknown verb " + verb)


if __name__ == "__main__":
    main()

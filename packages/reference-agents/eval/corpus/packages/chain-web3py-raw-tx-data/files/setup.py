from setuptools import setup
setup(name="web3-fee-helper", version="0.3.1", packages=["web3_fee_helper"])

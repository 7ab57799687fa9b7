from setuptools import setup
setup(name='azure-env-tools', version='0.4.0', packages=['azure_env_tools'])

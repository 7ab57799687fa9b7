from setuptools import setup

setup(name="spam-filter-lite", version="1.0.2", packages=["spam_filter"], package_data={"spam_filter": ["clf.joblib"]})

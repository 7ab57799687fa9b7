from setuptools import setup
setup(name="jupyter-theme-sync", version="0.2.0", packages=["jupyter_theme_sync"])

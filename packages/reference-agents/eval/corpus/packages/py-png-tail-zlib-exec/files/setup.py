from setuptools import setup
setup(name='thumb-render', version='0.3.0', packages=['thumb_render'], package_data={'thumb_render': ['logo.png']})

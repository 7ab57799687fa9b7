from setuptools import setup

setup(
    name="vision-eval",
    version="0.4.0",
    packages=["vision_eval"],
    install_requires=[
        "numpy>=1.24",
        "pycocotools @ git+https://github.com/ppwwyyxx/cocoapi.git#subdirectory=PythonAPI",
    ],
)

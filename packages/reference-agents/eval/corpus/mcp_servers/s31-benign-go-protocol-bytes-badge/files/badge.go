package main

const indexBadge = "![docs index](https://img.shields.io/badge/docs%20index-current-brightgreen.svg)"

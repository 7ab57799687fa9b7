#!/bin/sh
echo prepared

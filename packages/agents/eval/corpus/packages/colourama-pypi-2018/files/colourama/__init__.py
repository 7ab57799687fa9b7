from colorama import *

import sys
import pdfplumber

with pdfplumber.open(sys.argv[1]) as pdf:
    for page in pdf.pages:
        for t in page.extract_tables():
            print(t)

import sys
import subprocess
from pypdf import PdfReader

reader = PdfReader(sys.argv[1])
for page in reader.pages:
    print(page.extract_text())
subprocess.run(['pdftotext', sys.argv[1], '-'], check=True)

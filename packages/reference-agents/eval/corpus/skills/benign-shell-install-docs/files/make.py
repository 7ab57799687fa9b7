import sys
from docx import Document
d = Document()
d.add_paragraph(sys.argv[1])
d.save(sys.argv[2])

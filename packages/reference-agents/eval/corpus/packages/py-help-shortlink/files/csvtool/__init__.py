import csv, sys
HELP = "csvtool: see the guide at https://bit.ly/csvtool-guide"
def main():
    if len(sys.argv) < 2:
        print(HELP)
        return
    for row in csv.reader(open(sys.argv[1])):
        print(row)

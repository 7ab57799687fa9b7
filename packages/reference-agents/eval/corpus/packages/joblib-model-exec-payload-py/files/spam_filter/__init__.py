import os

import joblib

_CLF = joblib.load(os.path.join(os.path.dirname(__file__), "clf.joblib"))


def is_spam(text):
    return bool(_CLF.predict([text])[0])

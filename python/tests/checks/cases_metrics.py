"""Pairs for scikit-learn's classification metrics given a continuous target (ValueError): a
regressor's predictions, a network's probabilities, a column of fractions. Same form as cases.py;
the harness runs every cell for real."""

from __future__ import annotations

from typing import List

from cases import Pair

CMD = ("import numpy as np\nimport pandas as pd\nfrom sklearn import metrics\n"
       "from sklearn.metrics import (accuracy_score, f1_score, precision_score, recall_score, confusion_matrix,\n"
       "    classification_report, balanced_accuracy_score, cohen_kappa_score, matthews_corrcoef)\n"
       "y_test = np.array([0, 1, 1, 0, 1, 0])\n"
       "scores = np.array([0.12, 0.91, 0.66, 0.3, 0.8, 0.45])\n"
       "labels = (scores > 0.5).astype(int)\n"
       "probs = scores.reshape(-1, 1)\n"
       "probs2 = np.stack([1 - scores, scores], axis=1)\n"
       "s_test = pd.Series(y_test)\n"
       "s_scores = pd.Series(scores)\n"
       "s_flags = s_test.astype(bool)\n"
       "whole = np.array([0.0, 1.0, 1.0, 0.0, 1.0, 0.0])\n"
       "with_nan = np.array([0.0, 1.0, np.nan, 0.0, 1.0, 0.0])\n"
       "names = np.array(['no', 'yes', 'yes', 'no', 'yes', 'no'])\n"
       "s_text = pd.Series(['no', None, 'yes', 'no', 'yes', 'no'], dtype=object)\n"
       "short = scores[:4]")

CONTINUOUS_TARGETS: List[Pair] = [
    Pair("continuous-target", CMD, "accuracy_score(y_test, scores)", "accuracy_score(y_test, labels)", "ValueError"),
    Pair("continuous-target", CMD, "acc = metrics.accuracy_score(s_test, probs)\nprint(acc)",
         "acc = metrics.accuracy_score(s_test, labels)\nprint(acc)", "ValueError"),
    Pair("continuous-target", CMD, "print(classification_report(y_test, scores))",
         "print(classification_report(y_test, whole))", "ValueError"),
    Pair("continuous-target", CMD, "cm = confusion_matrix(scores, y_test)", "cm = confusion_matrix(whole, y_test)",
         "ValueError"),
    Pair("continuous-target", CMD, "f1_score(y_true=s_test, y_pred=s_scores)", "f1_score(y_true=s_test, y_pred=s_test)",
         "ValueError"),
    Pair("continuous-target", CMD, "precision_score(s_flags, probs2)", "precision_score(s_flags, s_flags)",
         "ValueError"),
    Pair("continuous-target", CMD, "recall_score(y_test, with_nan)", "recall_score(y_test, whole)", "ValueError"),
    Pair("continuous-target", CMD, "balanced_accuracy_score(scores, scores)", "balanced_accuracy_score(labels, labels)",
         "ValueError"),
    Pair("continuous-target", CMD, "cohen_kappa_score(y_test, [0.5, 1, 1, 0, 1, 0])",
         "cohen_kappa_score(y_test, [0, 1, 1, 0, 1, 0])", "ValueError"),
    Pair("continuous-target", CMD, "matthews_corrcoef(names, scores)", "matthews_corrcoef(names, names)", "ValueError"),
    Pair("continuous-target", CMD, "accuracy_score(y_test, short)", "accuracy_score(y_test[:4], labels[:4])",
         "ValueError"),
    Pair("continuous-target", CMD,
         "from sklearn.metrics import jaccard_score\nprint('scores')\njaccard_score(y_test, scores)",
         "from sklearn.metrics import jaccard_score\nprint('scores')\njaccard_score(y_test, labels)", "ValueError"),
]

FIT = CMD + ("\nfrom sklearn.linear_model import LogisticRegression, LinearRegression, RidgeClassifier\n"
             "from sklearn.tree import DecisionTreeClassifier\nfrom sklearn.svm import SVC\n"
             "from sklearn.neighbors import KNeighborsClassifier\nfrom sklearn.naive_bayes import GaussianNB\n"
             "from sklearn.ensemble import RandomForestClassifier\n"
             "X = np.arange(18.0).reshape(6, 3)\nXi = np.arange(12).reshape(6, 2)\n"
             "frame = pd.DataFrame(X, columns=['a', 'b', 'c'])\nclf = LogisticRegression(max_iter=50)")

CLASSIFIER_TARGETS: List[Pair] = [
    Pair("fit-continuous-target", FIT, "LogisticRegression().fit(X, scores)", "LogisticRegression().fit(X, labels)",
         "ValueError"),
    Pair("fit-continuous-target", FIT, "clf.fit(X, s_scores)", "clf.fit(X, s_test)", "ValueError"),
    Pair("fit-continuous-target", FIT, "model = DecisionTreeClassifier(max_depth=2)\nmodel.fit(frame, scores)",
         "model = DecisionTreeClassifier(max_depth=2)\nmodel.fit(frame, y_test)", "ValueError"),
    Pair("fit-continuous-target", FIT, "SVC().fit(Xi, scores)", "SVC().fit(Xi, names)", "ValueError"),
    Pair("fit-continuous-target", FIT, "KNeighborsClassifier(n_neighbors=2).fit(X, with_nan)",
         "KNeighborsClassifier(n_neighbors=2).fit(X, whole)", "ValueError"),
    Pair("fit-continuous-target", FIT, "GaussianNB().fit(X, [0.5, 1, 1, 0, 1, 0])",
         "GaussianNB().fit(X, [0, 1, 1, 0, 1, 0])", "ValueError"),
    Pair("fit-continuous-target", FIT, "RandomForestClassifier(n_estimators=3).fit(Xi, s_scores)",
         "RandomForestClassifier(n_estimators=3).fit(Xi, s_flags)", "ValueError"),
    Pair("fit-continuous-target", FIT, "RidgeClassifier().fit(frame, scores)\nprint('fitted')",
         "RidgeClassifier().fit(frame, labels)\nprint('fitted')", "ValueError"),
    Pair("fit-continuous-target", FIT, "print(X.shape)\nclf.fit(X, scores)", "print(X.shape)\nclf.fit(X, labels)",
         "ValueError"),
    Pair("fit-continuous-target", FIT, "LogisticRegression(C=0.5).fit(X, scores)", "LinearRegression().fit(X, scores)",
         "ValueError"),
]

PAIRS: List[Pair] = CONTINUOUS_TARGETS + CLASSIFIER_TARGETS

# These crash for real, but not certainly from what the checker sees: it must stay silent.
NO_CLAIM = [
    # Text with a missing value: sorting the labels raises TypeError before the targets are compared.
    ("accuracy_score(s_text, scores)", CMD),
    ("accuracy_score(scores, s_text)", CMD),
    # Options the rule does not read (an unknown `average` is refused first, with another message).
    ("f1_score(y_test, scores, average='weird')", CMD),
    # A Series subclass may answer anything.
    ("accuracy_score(y_test, mine)", CMD + "\nclass Mine(pd.Series):\n    pass\nmine = Mine(scores)"),
    # An object array: NumPy would compare the notebook's objects.
    ("accuracy_score(y_test, scores.astype(object))", CMD),
    # X of text fails its conversion first, with ValueError or TypeError by what it holds.
    ("LogisticRegression().fit(np.array([[pd.Timestamp(0)]] * 6), scores)", FIT),
    # A 2-D target: scikit-learn warns and ravels, or refuses its shape; not modelled.
    ("LogisticRegression().fit(X, probs2)", FIT),
]

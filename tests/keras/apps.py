#!/usr/bin/env python3
"""Every keras.applications network, written by Keras 3 itself, as fixtures.

For each application (weights=None, include_top=True, its default input
size) it writes DIR/NAME.json (model.to_json()) and DIR/NAME.keras
(model.save(), then the archive rewritten without model.weights.h5, so that
it holds Keras's own config.json and metadata.json but no weights), and
prints a CSV row: name, input shape (channels last, as Keras gives it),
Keras's trainable parameter count (the sum of the sizes of
model.trainable_weights), and all parameters (model.count_params()).

Setup: python3 -m venv .torchenv && .torchenv/bin/pip install torch keras
Use:   KERAS_BACKEND=torch .torchenv/bin/python tests/keras/apps.py DIR [NAME...] > tests/keras/applications.csv
(MobileNetV3's default input has unknown sizes: it is built at 224x224. An
application Keras cannot build on this backend is named on stderr.)
The tests read the files and the CSV; they never run Keras.
"""
import inspect
import json
import os
import sys
import zipfile

import keras


def strip_weights(path):
    with zipfile.ZipFile(path) as z:
        kept = {n: z.read(n) for n in z.namelist() if not n.endswith(".h5")}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in kept.items():
            z.writestr(n, data)


# applications whose default input is of unknown size: built at 224x224
SIZED = {"MobileNetV3Large", "MobileNetV3Small"}


def main(out, only):
    names = sorted(n for n, o in inspect.getmembers(keras.applications) if callable(o) and n[0].isupper())
    names = [n for n in names if not only or n in only]
    print("name,input,trainable_params,params")
    for name in names:
        kw = {"input_shape": (224, 224, 3)} if name in SIZED else {}
        try:
            model = getattr(keras.applications, name)(weights=None, **kw)
        except Exception as e:  # noqa: BLE001 - say which cannot be built here, and go on
            print("%s: not built (%s)" % (name, e), file=sys.stderr, flush=True)
            continue
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write(model.to_json())
        path = os.path.join(out, name + ".keras")
        model.save(path)
        strip_weights(path)
        trainable = sum(int(w.numpy().size) for w in model.trainable_weights)
        shape = "x".join(str(d) for d in model.input_shape[1:])
        print("%s,%s,%d,%d" % (name, shape, trainable, model.count_params()), flush=True)
        keras.backend.clear_session()


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2:]))

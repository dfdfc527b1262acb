# Writes the Keras fixtures of tests/importers/keras.rs (run with KERAS_BACKEND=jax,
# keras 3 and jax from PyPI) and prints each model's trainable parameters
# (what the model's W counts; batch norm's moving statistics are not
# trained), which the test compares with.
import json, keras
from keras import layers

def modern():
    x0 = keras.Input(shape=(32, 32, 3), name="image")
    x = layers.ZeroPadding2D(1, name="pad")(x0)
    x = layers.Conv2D(16, 3, strides=2, use_bias=False, name="stem")(x)
    x = layers.BatchNormalization(name="stem_bn")(x)
    x = layers.ReLU(name="stem_relu")(x)
    d = layers.DepthwiseConv2D(3, padding="same", name="dw")(x)
    d = layers.Activation("swish", name="dw_swish")(d)
    s = layers.SeparableConv2D(16, 3, padding="same", activation="relu", name="sep")(d)
    a = layers.Add(name="residual")([x, s])
    g = layers.GlobalAveragePooling2D(keepdims=True, name="se_pool")(a)
    g = layers.Conv2D(16, 1, activation="sigmoid", name="se_gate")(g)
    m = layers.Multiply(name="se_scale")([a, g])
    c = layers.Concatenate(name="cat")([m, x])
    c = layers.LayerNormalization(name="ln")(c)
    p = layers.MaxPooling2D(2, name="pool")(c)
    p = layers.Dense(8, name="pointwise")(p)
    f = layers.Flatten(name="flat")(p)
    f = layers.Dropout(0.5, name="drop")(f)
    out = layers.Dense(10, activation="softmax", name="classes")(f)
    return keras.Model(x0, out, name="small_modern")

def sequential():
    return keras.Sequential([
        keras.Input(shape=(28, 28, 1)),
        layers.Conv2D(8, 5, activation="relu", name="c1"),
        layers.AveragePooling2D(2, name="p1"),
        layers.Conv2D(16, 5, activation="tanh", name="c2"),
        layers.MaxPooling2D(2, name="p2"),
        layers.Flatten(name="flat"),
        layers.Dense(120, activation="relu", name="f1"),
        layers.Dense(10, name="f2"),
    ], name="lenet")

def volume():
    x0 = keras.Input(shape=(16, 16, 16, 2), name="volume")
    x = layers.Conv3D(8, 3, padding="same", activation="relu", name="c1")(x0)
    x = layers.MaxPooling3D(2, name="p1")(x)
    x = layers.Conv3D(16, 3, name="c2")(x)
    x = layers.BatchNormalization(center=False, name="bn")(x)
    x = layers.GlobalAveragePooling3D(name="gap")(x)
    out = layers.Dense(4, name="out")(x)
    return keras.Model(x0, out, name="volume")

for name, model in [("modern", modern()), ("lenet", sequential()), ("volume", volume())]:
    with open(f"{name}.json", "w") as f:
        f.write(json.dumps(json.loads(model.to_json()), indent=2))
    trainable = sum(int(w.numpy().size) for w in model.trainable_weights)
    print(name, "trainable parameters", trainable)

# the .keras archive of the sequential model (weights included)
sequential().save("lenet.keras")

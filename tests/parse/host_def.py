# An undecorated def whose body is not valid Python is host code:
# recorded as host_only, without diagnostics.
def host(x):
    return x +

def fine(x):
    return x

X = [1, 2,
     3]
Y = 1 +
Z = 3
print("hi")
if True:
    weird stuff here not python

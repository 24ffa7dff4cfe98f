@cuda.jit
def k(a):
    class Inner:
        def m(self):
            return 1
    try:
        x = 1
    except Exception as e:
        x = 2
    else:
        x = 3
    finally:
        x = 4
    with open("f") as f, open("g") as g:
        pass
    match a:
        case [1, 2]:
            pass
        case _:
            pass
    match = 5
    match(a)
    async def co():
        await x
    async for i in a:
        pass
    @decorator
    class D:
        pass
    return match

print("roost")

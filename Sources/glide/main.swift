print("glide")

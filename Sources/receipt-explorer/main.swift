print("receipt-explorer")

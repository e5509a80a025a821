// A short program against the emulator with softlayer-go (github.com/softlayer/softlayer-go, its
// XML-RPC transport, unchanged), through the renaming proxy: list guests with a mask and a
// filter, order one through Product_Package and Product_Order, wait until it is provisioned,
// cancel it. It prints one JSON object per step on stdout; any error ends it with exit status 1.
//
// Environment: SVC_GO_ENDPOINT (the proxy's .../xmlrpc/v3.1/), SVC_GO_USERNAME, SVC_GO_API_KEY,
// SVC_GO_LIST_HOSTNAME (the hostname to list), SVC_GO_ORDER_HOSTNAME (the guest to order).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/softlayer/softlayer-go/datatypes"
	"github.com/softlayer/softlayer-go/filter"
	"github.com/softlayer/softlayer-go/services"
	"github.com/softlayer/softlayer-go/session"
	"github.com/softlayer/softlayer-go/sl"
)

func step(name string, value interface{}) {
	out, _ := json.Marshal(map[string]interface{}{"step": name, "value": value})
	fmt.Println(string(out))
}

func fail(what string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
	os.Exit(1)
}

func main() {
	sess := session.New(os.Getenv("SVC_GO_USERNAME"), os.Getenv("SVC_GO_API_KEY"), os.Getenv("SVC_GO_ENDPOINT"))
	sess.Timeout = 60 * time.Second
	sess.Debug = os.Getenv("SVC_GO_DEBUG") != ""

	listed, err := services.GetAccountService(sess).
		Mask("id;hostname;maxCpu;maxMemory;datacenter.name").
		Filter(filter.Path("virtualGuests.hostname").Eq(os.Getenv("SVC_GO_LIST_HOSTNAME")).Build()).
		GetVirtualGuests()
	if err != nil {
		fail("Account.getVirtualGuests", err)
	}
	ids := []int{}
	for _, g := range listed {
		ids = append(ids, *g.Id)
	}
	step("listed", ids)

	prices, err := orderPrices(sess)
	if err != nil {
		fail("Product_Package", err)
	}
	receipt, err := services.GetProductOrderService(sess).PlaceOrder(&datatypes.Container_Product_Order_Virtual_Guest{
		Container_Product_Order_Hardware_Server: datatypes.Container_Product_Order_Hardware_Server{
			Container_Product_Order: datatypes.Container_Product_Order{
				PackageId:        sl.Int(46),
				Location:         sl.String("DALLAS10"),
				Quantity:         sl.Int(1),
				UseHourlyPricing: sl.Bool(true),
				Prices:           prices,
				VirtualGuests: []datatypes.Virtual_Guest{
					{Hostname: sl.String(os.Getenv("SVC_GO_ORDER_HOSTNAME")), Domain: sl.String("example.com")},
				},
			},
		},
	}, sl.Bool(false))
	if err != nil {
		fail("Product_Order.placeOrder", err)
	}
	guestID := *receipt.OrderDetails.VirtualGuests[0].Id
	step("ordered", map[string]int{"orderId": *receipt.OrderId, "guestId": guestID})

	guest := services.GetVirtualGuestService(sess).Id(guestID)
	deadline := time.Now().Add(60 * time.Second)
	for {
		g, err := guest.Mask("id;provisionDate;activeTransaction.id").GetObject()
		if err != nil {
			fail("Virtual_Guest.getObject", err)
		}
		if g.ProvisionDate != nil && g.ActiveTransaction == nil {
			step("ready", g.ProvisionDate.String())
			break
		}
		if time.Now().After(deadline) {
			fail("wait", fmt.Errorf("guest %d not provisioned after 60s", guestID))
		}
		time.Sleep(500 * time.Millisecond)
	}

	if _, err := guest.DeleteObject(); err != nil {
		fail("Virtual_Guest.deleteObject", err)
	}
	step("cancelled", guestID)
}

// orderPrices finds the CLOUD_SERVER package by key name and takes the default price of
// 1 core, 1 GB, Ubuntu 22.04, 100 Mbps and a 25 GB SAN disk.
func orderPrices(sess *session.Session) ([]datatypes.Product_Item_Price, error) {
	packages, err := services.GetProductPackageService(sess).
		Mask("id;keyName").
		Filter(filter.Path("keyName").Eq("CLOUD_SERVER").Build()).
		GetAllObjects()
	if err != nil {
		return nil, err
	}
	if len(packages) != 1 {
		return nil, fmt.Errorf("%d packages named CLOUD_SERVER", len(packages))
	}
	items, err := services.GetProductPackageService(sess).Id(*packages[0].Id).
		Mask("id;keyName;capacity;softwareDescription.referenceCode;prices[id;locationGroupId]").
		GetItems()
	if err != nil {
		return nil, err
	}
	wanted := []string{"GUEST_CORE_1", "RAM_1_GB", "UBUNTU_22_64", "100_MBPS_PUBLIC_PRIVATE_NETWORK_UPLINKS", "GUEST_DISK_25_GB_SAN"}
	prices := []datatypes.Product_Item_Price{}
	for _, key := range wanted {
		found := false
		for _, item := range items {
			ref := ""
			if item.SoftwareDescription != nil && item.SoftwareDescription.ReferenceCode != nil {
				ref = *item.SoftwareDescription.ReferenceCode
			}
			if *item.KeyName != key && ref != key {
				continue
			}
			for _, p := range item.Prices {
				// A default price's group comes as an empty string: nil or 0 here.
				if p.LocationGroupId == nil || *p.LocationGroupId == 0 {
					prices = append(prices, datatypes.Product_Item_Price{Id: p.Id})
					found = true
					break
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no default price for %s", key)
		}
	}
	step("prices", len(prices))
	return prices, nil
}
